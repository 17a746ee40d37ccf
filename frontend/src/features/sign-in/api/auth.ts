import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminCredentials } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';
import { getPasskey } from '@/lib/webauthn';

/** The password step: a session, or (with a second factor enrolled) the methods to finish with. */
export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminCredentials) => api.post('/api/admin/login', { body, skipAuthRedirect: true }),
    meta: { quiet: true },
    onSuccess: (data) => {
      if ('user' in data) qc.setQueryData(qk.me(), data);
    },
  });
}

/** The second step with a code from the authenticator app or a recovery code. */
export function useLoginCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ method, code }: { method: 'totp' | 'recovery'; code: string }) =>
      api.post(`/api/admin/login/${method}`, { body: { code }, skipAuthRedirect: true }),
    meta: { quiet: true },
    onSuccess: (data) => {
      qc.setQueryData(qk.me(), data);
    },
  });
}

/**
 * Signs in with a passkey: as the second step after the password (the server knows from the
 * pending sign-in's cookie), or passwordless with a discoverable passkey.
 */
export function usePasskeyLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const options = await api.post('/api/admin/login/passkey/begin', { skipAuthRedirect: true });
      const credential = await getPasskey(options);
      return api.post('/api/admin/login/passkey/finish', { body: { credential }, skipAuthRedirect: true });
    },
    meta: { quiet: true },
    onSuccess: (data) => {
      qc.setQueryData(qk.me(), data);
    },
  });
}

export function useSetup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminCredentials) => api.post('/api/admin/setup', { body, skipAuthRedirect: true }),
    meta: { quiet: true },
    onSuccess: (data) => {
      qc.setQueryData(qk.me(), data);
      return qc.invalidateQueries({ queryKey: qk.system() });
    },
  });
}

export function useLogout() {
  return useMutation({
    mutationFn: () => api.post('/api/admin/logout', { skipAuthRedirect: true }),
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

/** Whether "forgot password" is offered: only when the panel can send e-mail. */
/** Whether the sign-in page offers "Create an account" (self-registration is on). */
export function useRegistrationOffered() {
  return useQuery({ queryKey: ['registration', 'available'], queryFn: () => api.get('/api/registration'), staleTime: 60_000, retry: false });
}

export function useResetOffered() {
  return useQuery({ queryKey: ['password-reset', 'available'], queryFn: () => api.get('/api/password-reset'), staleTime: 60_000, retry: false });
}
