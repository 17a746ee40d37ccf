import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
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
    meta: { success: 'Credential set saved' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.credentialSets.all() }),
  });
}

export function useDeleteCredentialSet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/credential-sets/{id}', { params: { id } }),
    meta: { success: 'Credential set deleted' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.credentialSets.all() }),
  });
}
