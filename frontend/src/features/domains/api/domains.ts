import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { DomainInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

function useInvalidate() {
  const qc = useQueryClient();
  // Renaming a domain renames the hosts of its services.
  return () => Promise.all([qc.invalidateQueries({ queryKey: qk.domains.all() }), qc.invalidateQueries({ queryKey: qk.services.all() })]);
}

export function useSaveDomain() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: DomainInput }) =>
      id ? api.put('/api/domains/{id}', { params: { id }, body }) : api.post('/api/domains', { body }),
    meta: { success: i18n.t('domains:toast.saved') },
    onSuccess: invalidate,
  });
}

export function useDeleteDomain() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/domains/{id}', { params: { id } }),
    meta: { success: i18n.t('domains:toast.deleted') },
    onSuccess: invalidate,
  });
}
