import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { createPasskey, type ServerOptions } from '@/lib/webauthn';

/** What an invitation link is for; a used, expired or revoked link answers 404. */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation', 'preview', token],
    queryFn: () => api.post('/api/invitations/preview', { body: { token } }),
    retry: false,
  });
}

export type AcceptInput = { token: string; password: string; passkeyName: string; withPasskey: boolean };

/** Registers the passkey in the browser when asked, then accepts the invitation in one request. */
export function useAcceptInvitation() {
  return useMutation({
    mutationFn: async ({ token, password, passkeyName, withPasskey }: AcceptInput) => {
      let passkey: { challenge: string; name: string; credential: Record<string, unknown> } | undefined;
      if (withPasskey) {
        const begin = await api.post('/api/invitations/passkey', { body: { token } });
        const credential = await createPasskey(begin.options as unknown as ServerOptions);
        passkey = { challenge: begin.challenge, name: passkeyName || 'Passkey', credential: credential as unknown as Record<string, unknown> };
      }
      return api.post('/api/invitations/accept', { body: { token, password: password || undefined, passkey } });
    },
    meta: { quiet: true },
  });
}

export function useResetAvailable() {
  return useQuery({ queryKey: ['password-reset', 'available'], queryFn: () => api.get('/api/password-reset') });
}

export function useRequestReset() {
  return useMutation({
    mutationFn: (login: string) => api.post('/api/password-reset/request', { body: { login } }),
    meta: { quiet: true },
  });
}

export function useResetLink(token: string) {
  return useQuery({
    queryKey: ['password-reset', 'check', token],
    queryFn: () => api.post('/api/password-reset/check', { body: { token } }).then(() => true),
    retry: false,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => api.post('/api/password-reset', { body }),
    meta: { quiet: true },
  });
}

/** Whether visitors may create an account (the sign-in page offers the link only then). */
export function useRegistrationAvailable() {
  return useQuery({ queryKey: ['registration', 'available'], queryFn: () => api.get('/api/registration') });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: { username: string; email: string }) => api.post('/api/registration', { body }),
    meta: { quiet: true },
  });
}
