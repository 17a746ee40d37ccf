import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';

export function useMyAppPasswords() {
  return useQuery({
    queryKey: qk.account.appPasswords(),
    queryFn: () => api.get('/api/admin/me/app-passwords').then((r) => r.items ?? []),
  });
}

export function useCreateAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post('/api/admin/me/app-passwords', { body: { name } }),
    // The form shows a field error on its own field.
    meta: { quiet: true },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.account.appPasswords() }),
  });
}

export function useRevokeAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/admin/me/app-passwords/{id}', { params: { id } }),
    meta: { success: i18n.t('account:appPasswords.revoked') },
    // Refresh on failure too: a 404 means it was already revoked.
    onSettled: () => qc.invalidateQueries({ queryKey: qk.account.appPasswords() }),
  });
}
