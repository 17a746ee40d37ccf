import { createContext, useContext } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '@/lib/api-client';
import type { PasswordChange } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';
import { createPasskey, getPasskey } from '@/lib/webauthn';

// The person's own account on the portal. The routes are the panel's
// self-service ones (/api/admin/me/..., answered on the portal's host for the
// portal session) and the portal's own list of service sessions.

export const accountKeys = {
  serviceSessions: () => ['account', 'service-sessions'] as const,
};

/** Every change here may change what the rest of the page shows: refresh it all. */
function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: qk.account.all() });
}

// --- Password -------------------------------------------------------------

export function useChangeMyPassword() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: PasswordChange) => api.put('/api/admin/me/password', { body }),
    meta: { quiet: true, success: i18n.t('portal:password.changed') },
    onSuccess: refresh,
  });
}

// --- Where you are signed in ----------------------------------------------

/** The person's sign-ins on this portal (one per browser or device). */
export function usePortalSessions() {
  return useQuery({
    queryKey: qk.account.sessions(),
    queryFn: () => api.get('/api/admin/me/sessions').then((r) => r.items ?? []),
    refetchInterval: 60_000,
  });
}

/** The services opened from those sign-ins. */
export function useServiceSessions() {
  return useQuery({
    queryKey: accountKeys.serviceSessions(),
    queryFn: () => api.get('/api/portal/sessions').then((r) => r.items ?? []),
    refetchInterval: 60_000,
  });
}

/** Signs out one sign-in on the portal, and every service opened from it. */
export function useEndPortalSession() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/admin/me/sessions/{id}', { params: { id } }),
    meta: { success: i18n.t('portal:sessions.deviceEnded') },
    // A 404 means it had ended already: refresh either way.
    onSettled: refresh,
  });
}

/** Signs out of one service only. */
export function useEndServiceSession() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/portal/sessions/{id}', { params: { id } }),
    meta: { success: i18n.t('portal:sessions.serviceEnded') },
    onSettled: refresh,
  });
}

// --- Proof of who you are --------------------------------------------------

/**
 * Runs a change of how one signs in; when the server wants a recent proof of
 * who one is (403 reauthentication_required), asks for one and runs it again.
 */
export type WithProof = <T>(run: () => Promise<T>) => Promise<T>;

export const ProofContext = createContext<WithProof>((run) => run());

export function useWithProof(): WithProof {
  return useContext(ProofContext);
}

export function isReauthRequired(e: unknown): boolean {
  return isApiError(e) && e.code === 'reauthentication_required';
}

export function useReauthenticate() {
  return useMutation({
    mutationFn: (body: { password: string } | { code: string }) => api.post('/api/admin/me/reauthenticate', { body }),
    meta: { quiet: true },
  });
}

export function useReauthenticateWithPasskey() {
  return useMutation({
    mutationFn: async () => {
      const options = await api.post('/api/admin/me/reauthenticate/passkey/begin');
      const credential = await getPasskey(options);
      await api.post('/api/admin/me/reauthenticate/passkey/finish', { body: { credential } });
    },
    meta: { quiet: true },
  });
}

// --- Ways to sign in: authenticator app, passkeys, recovery codes -----------

export function useMyTwoFactor() {
  return useQuery({ queryKey: qk.account.twoFactor(), queryFn: () => api.get('/api/admin/me/2fa') });
}

export function useMyPasskeys() {
  return useQuery({ queryKey: qk.account.passkeys(), queryFn: () => api.get('/api/admin/me/passkeys').then((r) => r.items ?? []) });
}

export function useStartAuthenticatorApp() {
  const withProof = useWithProof();
  return useMutation({ mutationFn: () => withProof(() => api.post('/api/admin/me/2fa/totp')) });
}

export function useConfirmAuthenticatorApp() {
  const refresh = useRefresh();
  const withProof = useWithProof();
  return useMutation({
    mutationFn: (code: string) =>
      withProof(() => api.post('/api/admin/me/2fa/totp/confirm', { body: { code } })).then((r) => r.recoveryCodes),
    meta: { quiet: true, success: i18n.t('portal:app.added') },
    onSuccess: refresh,
  });
}

export function useRemoveAuthenticatorApp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { password?: string; code?: string }) => api.del('/api/admin/me/2fa/totp', { body }),
    meta: { quiet: true, success: i18n.t('portal:app.removed') },
    onSuccess: refresh,
  });
}

export function useNewRecoveryCodes() {
  const refresh = useRefresh();
  const withProof = useWithProof();
  return useMutation({
    mutationFn: () => withProof(() => api.post('/api/admin/me/2fa/recovery-codes')).then((r) => r.recoveryCodes),
    meta: { success: i18n.t('portal:recovery.made') },
    onSuccess: refresh,
  });
}

/** Asks the server for options, lets the browser make the passkey (bound to this host), and keeps it. */
export function useAddPasskey() {
  const refresh = useRefresh();
  const withProof = useWithProof();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await withProof(() => api.post('/api/admin/me/passkeys/register/begin'));
      const credential = await createPasskey(options);
      return api.post('/api/admin/me/passkeys/register/finish', { body: { name, credential } });
    },
    meta: { quiet: true, success: i18n.t('portal:passkeys.addedToast') },
    onSuccess: refresh,
  });
}

export function useRemovePasskey() {
  const refresh = useRefresh();
  const withProof = useWithProof();
  return useMutation({
    mutationFn: (id: string) => withProof(() => api.del('/api/admin/me/passkeys/{id}', { params: { id } })),
    meta: { success: i18n.t('portal:passkeys.removedToast') },
    onSettled: refresh,
  });
}

// --- App passwords -----------------------------------------------------------

export function useMyAppPasswords() {
  return useQuery({
    queryKey: qk.account.appPasswords(),
    queryFn: () => api.get('/api/admin/me/app-passwords').then((r) => r.items ?? []),
  });
}

export function useCreateAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post('/api/admin/me/app-passwords', { body: { name } }),
    meta: { quiet: true },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.account.appPasswords() }),
  });
}

export function useRevokeAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/admin/me/app-passwords/{id}', { params: { id } }),
    meta: { success: i18n.t('portal:appPasswords.removed') },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.account.appPasswords() }),
  });
}
