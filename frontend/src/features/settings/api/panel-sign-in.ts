import i18n from '@/lib/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminSsoSettingsInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useAdminSso() {
  return useQuery({ queryKey: qk.adminSso(), queryFn: () => api.get('/api/admin/sso') });
}

export function useSaveAdminSso() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminSsoSettingsInput) => api.put('/api/admin/sso', { body }),
    meta: { success: i18n.t('settings:toasts.panelSignIn') },
    onSuccess: (data) => {
      qc.setQueryData(qk.adminSso(), data);
      // The login page's offer (SSO button, password form) comes from /api/system.
      return qc.invalidateQueries({ queryKey: qk.system() });
    },
  });
}
