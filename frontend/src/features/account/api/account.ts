import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PasswordChange } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';

export function useMySessions() {
  return useQuery({
    queryKey: qk.account.sessions(),
    queryFn: () => api.get('/api/admin/me/sessions').then((r) => r.items ?? []),
    refetchInterval: 60_000,
  });
}

/** Changing the password ends every other session, so the list is refreshed afterwards. */
export function useChangePassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChange) => api.put('/api/admin/me/password', { body }),
    // The form shows every failure itself: on a field, or as the form's error.
    meta: { quiet: true, success: i18n.t('account:password.changed') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.account.all() }),
  });
}

export function useEndMySession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/admin/me/sessions/{id}', { params: { id } }),
    meta: { success: i18n.t('account:sessions.ended') },
    // Refresh on failure too: a 404 means the session had already ended.
    onSettled: () => qc.invalidateQueries({ queryKey: qk.account.all() }),
  });
}

export function useEndOtherSessions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.del('/api/admin/me/sessions'),
    meta: { success: i18n.t('account:sessions.othersEnded') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.account.all() }),
  });
}
