import i18n from '@/lib/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminTokenInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useApiTokens() {
  return useQuery({
    queryKey: qk.admins.tokens(),
    queryFn: () => api.get('/api/admin/tokens').then((r) => r.items ?? []),
    refetchInterval: 30_000,
  });
}

export function useCreateApiToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminTokenInput) => api.post('/api/admin/tokens', { body }),
    meta: { success: i18n.t('admin:toasts.created') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.admins.tokens() }),
  });
}

export function useRevokeApiToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/admin/tokens/{id}', { params: { id } }),
    meta: { success: i18n.t('admin:toasts.revoked') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.admins.tokens() }),
  });
}
