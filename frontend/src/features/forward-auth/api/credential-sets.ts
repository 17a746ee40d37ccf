import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { CredentialSetInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useCredentialSets() {
  return useQuery({
    queryKey: qk.credentialSets.list(),
    queryFn: () => api.get('/api/credential-sets').then((r) => r.items ?? []),
  });
}

export function useSaveCredentialSet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: CredentialSetInput }) =>
      id ? api.put('/api/credential-sets/{id}', { params: { id }, body }) : api.post('/api/credential-sets', { body }),
    meta: { success: i18n.t('forward-auth:toast.credentialSetSaved') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.credentialSets.all() }),
  });
}

export function useDeleteCredentialSet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/credential-sets/{id}', { params: { id } }),
    meta: { success: i18n.t('forward-auth:toast.credentialSetDeleted') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.credentialSets.all() }),
  });
}
