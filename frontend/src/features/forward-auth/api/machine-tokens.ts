import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MachineTokenInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useMachineTokens() {
  return useQuery({
    queryKey: qk.machineTokens.list(),
    queryFn: () => api.get('/api/machine-tokens').then((r) => r.items ?? []),
    refetchInterval: 30_000,
  });
}

export function useCreateMachineToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MachineTokenInput) => api.post('/api/machine-tokens', { body }),
    meta: { success: 'Token created' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}

export function useRevokeMachineToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/machine-tokens/{id}/revoke', { params: { id } }),
    meta: { success: 'Token revoked' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}

export function useDeleteMachineToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/machine-tokens/{id}', { params: { id } }),
    meta: { success: 'Token deleted' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}
