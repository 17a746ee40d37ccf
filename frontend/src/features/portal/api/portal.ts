import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import type { AdminCredentials } from '@/lib/api-types';
import i18n from '@/lib/i18n';
import { qk } from '@/lib/query-keys';
import { getPasskey } from '@/lib/webauthn';

export const portalKeys = {
  info: () => ['portal', 'info'] as const,
  services: () => ['portal', 'services'] as const,
};

export const getPortalInfo = () => api.get('/api/portal', { skipAuthRedirect: true });

/** The portal's name, logo and colour, and whether this host is the portal. */
export function usePortalInfo() {
  return useQuery({ queryKey: portalKeys.info(), queryFn: getPortalInfo, staleTime: 5 * 60_000 });
}

/** One service on the launcher (GET /api/portal/services). */
export type LauncherService = {
  id: string;
  name: string;
  description: string;
  icon: string;
  url: string;
  group: string;
  order: number;
};

/** The services the signed-in person may open. */
export async function getServices(): Promise<LauncherService[]> {
  const res = await fetch('/api/portal/services', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!res.ok) {
    let message = i18n.t('portal:launcher.listLoadFailed');
    try {
      const body = (await res.json()) as { error?: { message?: string } };
      if (body.error?.message) message = body.error.message;
    } catch {
      // keep the plain message
    }
    throw new ApiError({ status: res.status, code: res.status === 401 ? 'unauthenticated' : 'unknown', message });
  }
  const body = (await res.json()) as { services?: LauncherService[] };
  return body.services ?? [];
}

export function useServices() {
  return useQuery({ queryKey: portalKeys.services(), queryFn: getServices, retry: false, meta: { quiet: true } });
}

const remember = (on: boolean) => (on ? { remember: '1' as const } : {});

export function usePortalLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, rememberMe }: { body: AdminCredentials; rememberMe: boolean }) =>
      api.post('/api/admin/login', { body, query: remember(rememberMe), skipAuthRedirect: true }),
    meta: { quiet: true },
    onSuccess: (data) => {
      if ('user' in data) qc.setQueryData(qk.me(), data);
    },
  });
}

export function usePortalCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ method, code, rememberMe }: { method: 'totp' | 'recovery'; code: string; rememberMe: boolean }) =>
      api.post(`/api/admin/login/${method}`, { body: { code }, query: remember(rememberMe), skipAuthRedirect: true }),
    meta: { quiet: true },
    onSuccess: (data) => qc.setQueryData(qk.me(), data),
  });
}

/** A passkey alone (discoverable credential), or as the second step after the password. */
export function usePortalPasskey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (rememberMe: boolean) => {
      const options = await api.post('/api/admin/login/passkey/begin', { skipAuthRedirect: true });
      const credential = await getPasskey(options);
      return api.post('/api/admin/login/passkey/finish', { body: { credential }, query: remember(rememberMe), skipAuthRedirect: true });
    },
    meta: { quiet: true },
    onSuccess: (data) => qc.setQueryData(qk.me(), data),
  });
}

/** Signs out here, or everywhere: every portal session and the service sessions opened from them. */
export function usePortalLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (everywhere: boolean) =>
      api.post('/api/admin/logout', { query: everywhere ? { everywhere: '1' } : {}, skipAuthRedirect: true }),
    meta: { quiet: true },
    onSettled: () => qc.clear(),
  });
}

/** Whether the portal's sign-in offers "Create an account" (self-registration is on). */
/** Whether a forgotten password can be reset by e-mail (mail is set up). */
export function usePortalResetOffered() {
  return useQuery({ queryKey: ['password-reset', 'available'], queryFn: () => api.get('/api/password-reset'), staleTime: 60_000, retry: false });
}

export function usePortalRegistration() {
  return useQuery({ queryKey: ['registration', 'available'], queryFn: () => api.get('/api/registration'), staleTime: 60_000, retry: false });
}
