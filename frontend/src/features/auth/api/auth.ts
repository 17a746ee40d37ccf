import { useEffect } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminCredentials as Credentials, AdminUser } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export type { Credentials };

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Credentials) =>
      api.post<{ user: AdminUser }>('/api/admin/login', body, { skipAuthRedirect: true }),
    meta: { quiet: true },
    onSuccess: (data) => {
      qc.setQueryData(qk.me(), data);
    },
  });
}

export function useSetup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Credentials) =>
      api.post<{ user: AdminUser }>('/api/admin/setup', body, { skipAuthRedirect: true }),
    meta: { quiet: true },
    onSuccess: (data) => {
      qc.setQueryData(qk.me(), data);
      return qc.invalidateQueries({ queryKey: qk.system() });
    },
  });
}

export function useLogout() {
  return useMutation({
    mutationFn: () => api.post<void>('/api/admin/logout', undefined, { skipAuthRedirect: true }),
    meta: { quiet: true },
  });
}

/**
 * Drops every cached admin query. Called by the sign-in and setup pages on mount: nothing
 * that observes those queries is mounted there, so nothing refetches as signed out.
 */
export function useForgetSession() {
  const qc = useQueryClient();
  useEffect(() => {
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== qk.system()[0] });
  }, [qc]);
}
