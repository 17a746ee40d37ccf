import i18n from '@/lib/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { GlobalAccessRulesInput, RuleTestInput, ServiceAccessInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useServiceAccess(serviceId: string) {
  return useQuery({
    queryKey: qk.access.service(serviceId),
    queryFn: () => api.get('/api/services/{id}/access', { params: { id: serviceId } }),
  });
}

export function useSaveServiceAccess(serviceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ServiceAccessInput) => api.put('/api/services/{id}/access', { params: { id: serviceId }, body }),
    meta: { success: i18n.t('access:saved.service') },
    onSuccess: (data) => {
      qc.setQueryData(qk.access.service(serviceId), data);
      return Promise.all([
        qc.invalidateQueries({ queryKey: qk.access.service(serviceId) }),
        qc.invalidateQueries({ queryKey: qk.services.preview(serviceId) }),
        // Lists and headers show whether the rules open the service to everyone.
        qc.invalidateQueries({ queryKey: qk.services.all() }),
      ]);
    },
  });
}

export function useGlobalRules() {
  return useQuery({ queryKey: qk.access.global(), queryFn: () => api.get('/api/access/rules') });
}

export function useSaveGlobalRules() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: GlobalAccessRulesInput) => api.put('/api/access/rules', { body }),
    meta: { success: i18n.t('access:saved.global') },
    onSuccess: (data) => {
      qc.setQueryData(qk.access.global(), data);
      // Every service's evaluation (and exposure) changes with the global list.
      return Promise.all([
        qc.invalidateQueries({ queryKey: qk.access.all() }),
        qc.invalidateQueries({ queryKey: qk.services.all() }),
      ]);
    },
  });
}

export function usePresets(enabled = true) {
  return useQuery({
    enabled,
    queryKey: qk.access.presets(),
    queryFn: () => api.get('/api/access/presets').then((r) => r.items ?? []),
    staleTime: 5 * 60_000,
  });
}

/** Asks how the service would decide a request; `draft` tests unsaved rules. */
export function useTestRules(serviceId: string) {
  return useMutation({
    mutationFn: (body: RuleTestInput) => api.post('/api/services/{id}/access/test', { params: { id: serviceId }, body }),
  });
}
