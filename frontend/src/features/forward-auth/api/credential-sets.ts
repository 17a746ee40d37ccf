import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { CredentialSet, CredentialSetInput, Items } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export type { CredentialSetInput };

export function useCredentialSets() {
  return useQuery({
    queryKey: qk.credentialSets.list(),
    queryFn: () => api.get<Items<CredentialSet>>('/api/credential-sets').then((r) => r.items ?? []),
  });
}

export function useSaveCredentialSet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: CredentialSetInput }) =>
      id ? api.put<CredentialSet>(`/api/credential-sets/${encodeURIComponent(id)}`, body) : api.post<CredentialSet>('/api/credential-sets', body),
    meta: { success: 'Credential set saved' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.credentialSets.all() }),
  });
}

export function useDeleteCredentialSet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del(`/api/credential-sets/${encodeURIComponent(id)}`),
    meta: { success: 'Credential set deleted' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.credentialSets.all() }),
  });
}
