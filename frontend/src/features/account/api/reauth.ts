import { createContext, useContext } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, isApiError } from '@/lib/api-client';
import { getPasskey } from '@/lib/webauthn';

/**
 * Runs a change of one's second factors; when the server answers 403
 * reauthentication_required (no proof of who one is in the last few minutes), asks for one
 * and runs the change again. Rejects with the server's error when the person cancels.
 */
export type WithProof = <T>(run: () => Promise<T>) => Promise<T>;

/** Without a provider the change just runs (and its 403 reaches the caller). */
export const ProofContext = createContext<WithProof>((run) => run());

export function useWithProof(): WithProof {
  return useContext(ProofContext);
}

export function isReauthRequired(e: unknown): boolean {
  return isApiError(e) && e.code === 'reauthentication_required';
}

/** A password or a current code from the authenticator app as a new proof. */
export function useReauthenticate() {
  return useMutation({
    mutationFn: (body: { password: string } | { code: string }) => api.post('/api/admin/me/reauthenticate', { body }),
    meta: { quiet: true },
  });
}

/** One of one's own passkeys as a new proof. */
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
