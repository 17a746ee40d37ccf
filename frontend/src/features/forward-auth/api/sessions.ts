import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';

export function useSessions() {
  return useQuery({
    queryKey: qk.sessions.all(),
    queryFn: () => api.get('/api/sessions').then((r) => r.items ?? []),
    refetchInterval: 30_000,
  });
}

export function useDeleteSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/sessions/{id}', { params: { id } }),
    meta: { success: i18n.t('forward-auth:toast.sessionEnded') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.sessions.all() }),
  });
}

export function useDeleteAllSessions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.del('/api/sessions'),
    meta: { success: i18n.t('forward-auth:toast.allSessionsEnded') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.sessions.all() }),
  });
}
