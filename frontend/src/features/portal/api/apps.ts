import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const appKeys = {
  request: (id: string) => ['portal', 'oidc', 'request', id] as const,
  device: (code: string) => ['portal', 'oidc', 'device', code] as const,
};

/** An app's pending sign-in (its consent or refusal page). */
export function useAppRequest(id: string) {
  return useQuery({
    queryKey: appKeys.request(id),
    queryFn: () => api.get('/api/portal/oidc/requests/{id}', { params: { id } }),
    enabled: id !== '',
    retry: false,
    meta: { quiet: true },
  });
}

/** Allow or refuse an app; the answer says where the browser goes. */
export function useAppConsent(id: string) {
  return useMutation({
    mutationFn: (approve: boolean) => api.post('/api/portal/oidc/requests/{id}/consent', { params: { id }, body: { approve } }),
    meta: { quiet: true },
  });
}

/** The device sign-in waiting behind the code the person typed. */
export function useDeviceLookup(code: string) {
  return useQuery({
    queryKey: appKeys.device(code),
    queryFn: () => api.get('/api/portal/oidc/device', { query: { userCode: code } }),
    enabled: code !== '',
    retry: false,
    meta: { quiet: true },
  });
}

export function useDeviceAnswer() {
  return useMutation({
    mutationFn: (body: { userCode: string; approve: boolean }) => api.post('/api/portal/oidc/device', { body }),
    meta: { quiet: true },
  });
}
