import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';
import { createPasskey } from '@/lib/webauthn';
import { useWithProof } from './reauth';

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: qk.account.twoFactor(),
    queryFn: () => api.get('/api/admin/me/2fa'),
  });
}

export function usePasskeys() {
  return useQuery({
    queryKey: qk.account.passkeys(),
    queryFn: () => api.get('/api/admin/me/passkeys').then((r) => r.items ?? []),
  });
}

/** Every change to a factor may change what the rest of the panel allows: refresh it all. */
function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: qk.account.all() }).then(() => qc.invalidateQueries());
}

// Setting up or removing a factor and new recovery codes need a recent proof of who one is:
// each runs through withProof, which asks for one when the server wants it and retries.

export function useBeginTotp() {
  const withProof = useWithProof();
  return useMutation({ mutationFn: () => withProof(() => api.post('/api/admin/me/2fa/totp')) });
}

export function useConfirmTotp() {
  const refresh = useRefresh();
  const withProof = useWithProof();
  return useMutation({
    mutationFn: (code: string) =>
      withProof(() => api.post('/api/admin/me/2fa/totp/confirm', { body: { code } })).then((r) => r.recoveryCodes),
    meta: { quiet: true, success: i18n.t('account:totp.turnedOn') },
    onSuccess: refresh,
  });
}

export function useDisableTotp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { password?: string; code?: string }) => api.del('/api/admin/me/2fa/totp', { body }),
    meta: { quiet: true, success: i18n.t('account:totp.turnedOff') },
    onSuccess: refresh,
  });
}

export function useRegenerateRecoveryCodes() {
  const refresh = useRefresh();
  const withProof = useWithProof();
  return useMutation({
    mutationFn: () => withProof(() => api.post('/api/admin/me/2fa/recovery-codes')).then((r) => r.recoveryCodes),
    meta: { success: i18n.t('account:twoFactor.regenerated') },
    onSuccess: refresh,
  });
}

/** Asks the server for options, lets the browser create the passkey, and stores it. */
export function useAddPasskey() {
  const refresh = useRefresh();
  const withProof = useWithProof();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await withProof(() => api.post('/api/admin/me/passkeys/register/begin'));
      const credential = await createPasskey(options);
      return api.post('/api/admin/me/passkeys/register/finish', { body: { name, credential } });
    },
    meta: { quiet: true, success: i18n.t('account:passkeys.addedToast') },
    onSuccess: refresh,
  });
}

export function useDeletePasskey() {
  const refresh = useRefresh();
  const withProof = useWithProof();
  return useMutation({
    mutationFn: (id: string) => withProof(() => api.del('/api/admin/me/passkeys/{id}', { params: { id } })),
    meta: { success: i18n.t('account:passkeys.removedToast') },
    onSettled: refresh,
  });
}

export function useRenamePasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api.patch('/api/admin/me/passkeys/{id}', { params: { id }, body: { name } }),
    meta: { quiet: true, success: i18n.t('account:passkeys.renamedToast') },
    onSuccess: refresh,
  });
}
