import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { Service, ServiceInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useService(id: string | undefined) {
  return useQuery({
    queryKey: qk.services.detail(id ?? ''),
    queryFn: () => api.get('/api/services/{id}', { params: { id: id! } }),
    enabled: !!id,
  });
}

export function useConfigPreview(id: string | undefined) {
  return useQuery({
    queryKey: qk.services.preview(id ?? ''),
    queryFn: () => api.get('/api/proxy/config/preview', { query: { serviceId: id! } }),
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
    mutationFn: (body: ServiceInput) => api.post('/api/services', { body }),
    meta: { success: i18n.t('services:toast.created') },
    onSuccess: (s) => invalidate(s.id),
  });
}

export function useUpdateService(id: string) {
  const invalidate = useInvalidateServices();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ServiceInput) => api.put('/api/services/{id}', { params: { id }, body }),
    meta: { success: i18n.t('services:toast.saved') },
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
      api.patch('/api/services/{id}', { params: { id: service.id }, body: { enabled } }),
    onSuccess: (s) => invalidate(s.id),
  });
}

export function useDeleteService() {
  const invalidate = useInvalidateServices();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/services/{id}', { params: { id } }),
    meta: { success: i18n.t('services:toast.deleted') },
    onSuccess: (_v, id) => {
      qc.removeQueries({ queryKey: qk.services.detail(id) });
      return invalidate();
    },
  });
}
