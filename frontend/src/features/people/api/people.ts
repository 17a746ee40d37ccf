import i18n from '@/lib/i18n';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { GroupInput, PersonInput, PersonUpdate } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export const PEOPLE_PAGE_SIZE = 50;

export function usePeople(q: string, offset: number) {
  return useQuery({
    queryKey: qk.people.list(q, offset),
    queryFn: ({ signal }) => api.get('/api/people', { query: { q: q || undefined, limit: PEOPLE_PAGE_SIZE, offset }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreatePerson() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PersonInput) => api.post('/api/people', { body }),
    meta: { success: i18n.t('people:toasts.personAdded') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

/** Edits, role changes and disabling; the server refuses a lock-out and says so. */
export function useUpdatePerson() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: PersonUpdate & { id: string }) => api.patch('/api/people/{id}', { params: { id }, body }),
    meta: { quiet: true, success: i18n.t('people:toasts.personUpdated') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useDeletePerson() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/people/{id}', { params: { id } }),
    meta: { quiet: true, success: i18n.t('people:toasts.personRemoved') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useSetPersonPassword() {
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) => api.put('/api/people/{id}/password', { params: { id }, body: { password } }),
    meta: { quiet: true, success: i18n.t('people:toasts.passwordSet') },
  });
}

export function useResetSecondFactor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/people/{id}/second-factor', { params: { id } }),
    meta: { success: i18n.t('people:toasts.secondFactorRemoved') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function usePersonSessions(id: string | null) {
  return useQuery({
    queryKey: qk.people.sessions(id ?? ''),
    queryFn: () => api.get('/api/people/{id}/sessions', { params: { id: id! } }).then((r) => r.items),
    enabled: !!id,
  });
}

export function usePersonServiceSessions(id: string | null) {
  return useQuery({
    queryKey: qk.people.serviceSessions(id ?? ''),
    queryFn: () => api.get('/api/people/{id}/service-sessions', { params: { id: id! } }).then((r) => r.items),
    enabled: !!id,
  });
}

export function useEndPersonServiceSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, sessionId }: { id: string; sessionId: string }) =>
      api.del('/api/people/{id}/service-sessions/{sessionId}', { params: { id, sessionId } }),
    meta: { success: i18n.t('people:toasts.sessionEnded') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function usePersonAppPasswords(id: string | null) {
  return useQuery({
    queryKey: qk.people.appPasswords(id ?? ''),
    queryFn: () => api.get('/api/people/{id}/app-passwords', { params: { id: id! } }).then((r) => r.items),
    enabled: !!id,
  });
}

export function useRevokePersonAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, passwordId }: { id: string; passwordId: string }) =>
      api.del('/api/people/{id}/app-passwords/{passwordId}', { params: { id, passwordId } }),
    meta: { success: i18n.t('people:toasts.appPasswordRevoked') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useEndPersonSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, sessionId }: { id: string; sessionId: string }) =>
      api.del('/api/people/{id}/sessions/{sessionId}', { params: { id, sessionId } }),
    meta: { success: i18n.t('people:toasts.sessionEnded') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useGroups() {
  return useQuery({
    queryKey: qk.people.groups(),
    queryFn: () => api.get('/api/groups').then((r) => r.items),
  });
}

export function useCreateGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: GroupInput) => api.post('/api/groups', { body }),
    meta: { success: i18n.t('people:toasts.groupAdded') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useUpdateGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: GroupInput & { id: string }) => api.patch('/api/groups/{id}', { params: { id }, body }),
    meta: { success: i18n.t('people:toasts.groupUpdated') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useDeleteGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/groups/{id}', { params: { id } }),
    meta: { success: i18n.t('people:toasts.groupRemoved') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useAddMember() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, personId }: { id: string; personId: string }) => api.post('/api/groups/{id}/members', { params: { id }, body: { personId } }),
    meta: { success: i18n.t('people:toasts.memberAdded') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}

export function useRemoveMember() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, personId }: { id: string; personId: string }) => api.del('/api/groups/{id}/members/{personId}', { params: { id, personId } }),
    meta: { success: i18n.t('people:toasts.memberRemoved') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.people.all() }),
  });
}
