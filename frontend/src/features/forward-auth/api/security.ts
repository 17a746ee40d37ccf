import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { ProtectionSettings, SharedLinkInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

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
    meta: { success: i18n.t('forward-auth:toast.linkCreated') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.services.sharedLinks(serviceId) }),
  });
}

export function useRevokeSharedLink(serviceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => api.del('/api/services/{id}/shared-links/{linkId}', { params: { id: serviceId, linkId } }),
    meta: { success: i18n.t('forward-auth:toast.linkRevoked') },
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: qk.services.sharedLinks(serviceId) }),
        qc.invalidateQueries({ queryKey: qk.sessions.all() }),
      ]),
  });
}

export function useProtection(serviceId: string) {
  return useQuery({
    queryKey: qk.services.protection(serviceId),
    queryFn: () => api.get('/api/services/{id}/protection', { params: { id: serviceId } }),
  });
}

/** Saves every protection of the service in one request (one transaction on the server). */
export function useSaveProtection(serviceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProtectionSettings) => api.put('/api/services/{id}/protection', { params: { id: serviceId }, body }),
    meta: { success: i18n.t('forward-auth:toast.protectionSaved') },
    onSuccess: (saved) => {
      qc.setQueryData(qk.services.protection(serviceId), saved);
      return Promise.all([
        qc.invalidateQueries({ queryKey: qk.services.security(serviceId) }),
        qc.invalidateQueries({ queryKey: qk.services.list() }),
        qc.invalidateQueries({ queryKey: qk.services.detail(serviceId) }),
        qc.invalidateQueries({ queryKey: qk.services.preview(serviceId) }),
        qc.invalidateQueries({ queryKey: qk.access.service(serviceId) }),
      ]);
    },
  });
}
