import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ContainerServiceInput } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';

/** The running containers; read again every 10 s, as containers come and go. */
export function useContainers() {
  return useQuery({
    queryKey: qk.containers.list(),
    queryFn: () => api.get('/api/containers'),
    refetchInterval: 10_000,
  });
}

export function useCreateFromContainer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ContainerServiceInput) => api.post('/api/containers/services', { body }),
    meta: { success: i18n.t('containers:toast.created') },
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: qk.containers.all() }),
        qc.invalidateQueries({ queryKey: qk.services.all() }),
        qc.invalidateQueries({ queryKey: qk.proxy.all() }),
      ]),
  });
}
