import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { OidcClientInput } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';

/** Every client, and where apps find the provider. */
export function useOidcClients() {
  return useQuery({ queryKey: qk.oidcClients.list(), queryFn: () => api.get('/api/oidc/clients') });
}

export function useOidcPresets() {
  return useQuery({
    queryKey: qk.oidcClients.presets(),
    queryFn: () => api.get('/api/oidc/presets').then((r) => r.items),
    staleTime: Infinity,
  });
}

/** The directory's groups (id and name), for the allowed-groups picker. */
export function useGroupChoices() {
  return useQuery({
    queryKey: qk.people.groups(),
    queryFn: () => api.get('/api/groups').then((r) => (r.items ?? []).map((g) => ({ id: g.id, name: g.name }))),
    meta: { quiet: true },
  });
}

export function useCreateOidcClient() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: OidcClientInput) => api.post('/api/oidc/clients', { body }),
    meta: { success: i18n.t('oidc-clients:toast.created') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.oidcClients.all() }),
  });
}

export function useUpdateOidcClient() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: OidcClientInput }) => api.put('/api/oidc/clients/{id}', { params: { id }, body }),
    meta: { success: i18n.t('oidc-clients:toast.saved') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.oidcClients.all() }),
  });
}

export function useDeleteOidcClient() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/oidc/clients/{id}', { params: { id } }),
    meta: { success: i18n.t('oidc-clients:toast.deleted') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.oidcClients.all() }),
  });
}

export function useRotateOidcSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/oidc/clients/{id}/secret', { params: { id } }),
    meta: { success: i18n.t('oidc-clients:toast.rotated') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.oidcClients.all() }),
  });
}
