import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { SecurityConfigInput, SharedLinkInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useSecurityConfigs(serviceId: string) {
  return useQuery({
    queryKey: qk.services.security(serviceId),
    queryFn: () => api.get('/api/services/{id}/security-configs', { params: { id: serviceId } }).then((r) => r.items ?? []),
  });
}

export function useSaveSecurityConfig(serviceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SecurityConfigInput) => api.post('/api/services/{id}/security-configs', { params: { id: serviceId }, body }),
    meta: { success: 'Access settings saved' },
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: qk.services.security(serviceId) }),
        qc.invalidateQueries({ queryKey: qk.services.list() }),
        qc.invalidateQueries({ queryKey: qk.services.detail(serviceId) }),
        qc.invalidateQueries({ queryKey: qk.services.preview(serviceId) }),
        // The Access tab's automatic default follows the protections.
        qc.invalidateQueries({ queryKey: qk.access.service(serviceId) }),
      ]),
  });
}

export function useCredentialSetOptions() {
  return useQuery({
    queryKey: qk.credentialSets.list(),
    queryFn: () => api.get('/api/credential-sets').then((r) => r.items ?? []),
  });
}

export function useSsoProvider() {
  return useQuery({ queryKey: qk.sso(), queryFn: () => api.get('/api/sso'), meta: { quiet: true }, retry: false });
}

export function useSharedLinks(serviceId: string) {
  return useQuery({
    queryKey: qk.services.sharedLinks(serviceId),
    queryFn: () => api.get('/api/services/{id}/shared-links', { params: { id: serviceId } }).then((r) => r.items ?? []),
  });
}

export function useCreateSharedLink(serviceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SharedLinkInput) => api.post('/api/services/{id}/shared-links', { params: { id: serviceId }, body }),
    meta: { success: 'Shared link created' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.services.sharedLinks(serviceId) }),
  });
}

export function useRevokeSharedLink(serviceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => api.del('/api/services/{id}/shared-links/{linkId}', { params: { id: serviceId, linkId } }),
    meta: { success: 'Link revoked' },
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: qk.services.sharedLinks(serviceId) }),
        qc.invalidateQueries({ queryKey: qk.sessions.all() }),
      ]),
  });
}
