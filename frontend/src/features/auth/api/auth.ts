import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminUser } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export type Credentials = { username: string; password: string };

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

/** The caller navigates away first, then calls `forget()` so no mounted query refetches as signed out. */
export function useLogout() {
  const qc = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => api.post<void>('/api/admin/logout', undefined, { skipAuthRedirect: true }),
    meta: { quiet: true },
  });
  const forget = () => window.setTimeout(() => qc.removeQueries({ predicate: (q) => q.queryKey[0] !== qk.system()[0] }), 0);
  return { ...mutation, forget };
}
