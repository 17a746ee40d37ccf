import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { ManagedConfig } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

/** While a restart is pending, poll so the page turns "applied" when the wrapper reports. */
/** The managed-mode state; enabled false (managed mode is off) asks nothing. */
export function useManagedState(enabled = true) {
  return useQuery({
    enabled,
    queryKey: qk.managed.state(),
    queryFn: () => api.get('/api/proxy/managed'),
    retry: false,
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 5000 : false),
  });
}

export function useDnsProviders() {
  return useQuery({
    queryKey: qk.managed.dnsProviders(),
    queryFn: () => api.get('/api/proxy/managed/dns-providers').then((r) => r.items ?? []),
    staleTime: Infinity,
    meta: { quiet: true },
  });
}

export function useSaveManagedConfig() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (config: ManagedConfig) => api.put('/api/proxy/managed', { body: config }),
    meta: { success: i18n.t('managed:toast.configSaved') },
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: qk.managed.all() }), qc.invalidateQueries({ queryKey: qk.proxy.all() })]),
  });
}

export function useSaveSecrets() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { upsert: Record<string, string>; remove: string[] }) =>
      api.put('/api/proxy/managed/secrets', { body }),
    meta: { success: i18n.t('managed:toast.credentialsSaved') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.managed.all() }),
  });
}
