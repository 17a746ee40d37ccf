import i18n from '@/lib/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { InvitationInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useInvitations() {
  return useQuery({ queryKey: qk.people.invitations(), queryFn: () => api.get('/api/invitations').then((r) => r.items) });
}

/** Invites a person; the answer carries the one-use link, shown once. */
export function useCreateInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: InvitationInput) => api.post('/api/invitations', { body }),
    meta: { quiet: true },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useRevokeInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/invitations/{id}', { params: { id } }),
    meta: { success: i18n.t('people:toasts.invitationWithdrawn') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useRegistrationSettings() {
  return useQuery({ queryKey: [...qk.people.all(), 'registration'], queryFn: () => api.get('/api/registration/settings') });
}

/** Saves who may create their own account. */
export function useSaveRegistrationSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { mode: 'off' | 'domains'; domains: string[]; groups: string[] }) => api.put('/api/registration/settings', { body }),
    meta: { quiet: true },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}
