import i18n from '@/lib/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { GlobalConfig, SsoSettingsInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useSaveConfig() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: GlobalConfig) => api.put('/api/config', { body }),
    meta: { success: i18n.t('settings:toasts.settings') },
    onSuccess: (data) => {
      qc.setQueryData(qk.config(), data);
      return qc.invalidateQueries({ queryKey: qk.services.all() });
    },
  });
}

export function useSso() {
  return useQuery({ queryKey: qk.sso(), queryFn: () => api.get('/api/sso') });
}

export function useSaveSso() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoSettingsInput) => api.put('/api/sso', { body }),
    meta: { success: i18n.t('settings:toasts.sso') },
    onSuccess: (data) => {
      qc.setQueryData(qk.sso(), data);
    },
  });
}
