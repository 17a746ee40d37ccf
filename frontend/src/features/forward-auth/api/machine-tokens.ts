import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Items, MachineToken, MachineTokenCreated, MachineTokenInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

const base = '/api/machine-tokens';

export function useMachineTokens() {
  return useQuery({
    queryKey: qk.machineTokens.list(),
    queryFn: () => api.get<Items<MachineToken>>(base).then((r) => r.items ?? []),
    refetchInterval: 30_000,
  });
}

export function useCreateMachineToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MachineTokenInput) => api.post<MachineTokenCreated>(base, body),
    meta: { success: 'Token created' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}

export function useRevokeMachineToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<MachineToken>(`${base}/${encodeURIComponent(id)}/revoke`),
    meta: { success: 'Token revoked' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}

export function useDeleteMachineToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del(`${base}/${encodeURIComponent(id)}`),
    meta: { success: 'Token deleted' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}
