import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
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
    meta: { success: i18n.t('forward-auth:toast.tokenCreated') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}

export function useRevokeMachineToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/machine-tokens/{id}/revoke', { params: { id } }),
    meta: { success: i18n.t('forward-auth:toast.tokenRevoked') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}

export function useDeleteMachineToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/machine-tokens/{id}', { params: { id } }),
    meta: { success: i18n.t('forward-auth:toast.tokenDeleted') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.machineTokens.all() }),
  });
}
