import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Service, ServiceInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export type ConfigPreview = {
  serviceId?: string;
  enabled?: boolean;
  problems?: string[];
  /** What may surprise about the emitted service, e.g. Traefik's default certificate. */
  warnings?: { code: string; message: string }[];
  routers?: Record<string, unknown>;
  services?: Record<string, unknown>;
  middlewares?: Record<string, unknown>;
  serversTransports?: Record<string, unknown>;
};

export function useService(id: string | undefined) {
  return useQuery({
    queryKey: qk.services.detail(id ?? ''),
    queryFn: () => api.get<Service>(`/api/services/${encodeURIComponent(id!)}`),
    enabled: !!id,
  });
}

export function useConfigPreview(id: string | undefined) {
  return useQuery({
    queryKey: qk.services.preview(id ?? ''),
    queryFn: () => api.get<ConfigPreview>(`/api/proxy/config/preview?serviceId=${encodeURIComponent(id!)}`),
    enabled: !!id,
  });
}

function useInvalidateServices() {
  const qc = useQueryClient();
  return (id?: string) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: qk.services.list() }),
      id ? qc.invalidateQueries({ queryKey: qk.services.detail(id) }) : null,
      id ? qc.invalidateQueries({ queryKey: qk.services.preview(id) }) : null,
      qc.invalidateQueries({ queryKey: qk.proxy.all() }),
    ]);
}

export function useCreateService() {
  const invalidate = useInvalidateServices();
  return useMutation({
    mutationFn: (body: ServiceInput) => api.post<Service>('/api/services', body),
    meta: { success: 'Service created' },
    onSuccess: (s) => invalidate(s.id),
  });
}

export function useUpdateService(id: string) {
  const invalidate = useInvalidateServices();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ServiceInput) => api.put<Service>(`/api/services/${encodeURIComponent(id)}`, body),
    meta: { success: 'Service saved' },
    onSuccess: (s) => {
      qc.setQueryData(qk.services.detail(id), s);
      return invalidate(id);
    },
  });
}

/** Enable/disable is a PATCH of `enabled` alone, so it never overwrites a concurrent edit. */
export function useToggleService() {
  const invalidate = useInvalidateServices();
  return useMutation({
    mutationFn: ({ service, enabled }: { service: Service; enabled: boolean }) =>
      api.patch<Service>(`/api/services/${encodeURIComponent(service.id)}`, { enabled }),
    onSuccess: (s) => invalidate(s.id),
  });
}

export function useDeleteService() {
  const invalidate = useInvalidateServices();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del(`/api/services/${encodeURIComponent(id)}`),
    meta: { success: 'Service deleted' },
    onSuccess: (_v, id) => {
      qc.removeQueries({ queryKey: qk.services.detail(id) });
      return invalidate();
    },
  });
}
