import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';

/** Which services are bound to a container, and what the engine last said of it. */
export function useContainerBindings() {
  return useQuery({
    queryKey: qk.containers.bindings(),
    queryFn: async () => (await api.get('/api/containers/bindings')).items,
    refetchInterval: 15_000,
  });
}

/** The binding of one service, if it has one. */
export function useContainerBinding(serviceId: string | undefined) {
  const bindings = useContainerBindings();
  return bindings.data?.find((b) => b.serviceId === serviceId);
}

/** Detach: the service stays, as an ordinary one. */
export function useDetachContainer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (serviceId: string) => api.del('/api/containers/bindings/{serviceId}', { params: { serviceId } }),
    meta: { success: i18n.t('services:container.detached') },
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: qk.containers.all() }), qc.invalidateQueries({ queryKey: qk.services.all() })]),
  });
}
