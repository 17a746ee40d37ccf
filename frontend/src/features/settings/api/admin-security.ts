import i18n from '@/lib/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminSecurity } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useAdminSecurity() {
  return useQuery({ queryKey: qk.adminSecurity(), queryFn: () => api.get('/api/admin/security') });
}

export function useSaveAdminSecurity() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminSecurity) => api.put('/api/admin/security', { body }),
    meta: { success: i18n.t('settings:toasts.security') },
    onSuccess: (data) => {
      qc.setQueryData(qk.adminSecurity(), data);
      return qc.invalidateQueries({ queryKey: qk.account.all() });
    },
  });
}
