import i18n from '@/lib/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PortalSettings } from '@/lib/api-types';

const key = ['config', 'portal'] as const;

export function usePortalSettings() {
  return useQuery({ queryKey: key, queryFn: () => api.get('/api/config/portal') });
}

export function useSavePortalSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PortalSettings) => api.put('/api/config/portal', { body }),
    meta: { success: i18n.t('settings:toasts.portal') },
    onSuccess: (data) => qc.setQueryData(key, data),
  });
}
