import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminAccountInput, AdminAccountUpdate, AdminTokenInput } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export function useAdmins() {
  return useQuery({
    queryKey: qk.admins.list(),
    queryFn: () => api.get('/api/admin/users').then((r) => r.items ?? []),
  });
}

export function useCreateAdmin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminAccountInput) => api.post('/api/admin/users', { body }),
    meta: { success: 'Administrator added' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.admins.all() }),
  });
}

/** Role changes and disabling; the server refuses to leave no active admin and says so. */
export function useUpdateAdmin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: AdminAccountUpdate & { id: string }) => api.patch('/api/admin/users/{id}', { params: { id }, body }),
    // The page shows a refusal itself, in the server's words.
    meta: { quiet: true, success: 'Administrator updated' },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.admins.all() }),
  });
}

export function useDeleteAdmin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/admin/users/{id}', { params: { id } }),
    meta: { quiet: true, success: 'Administrator removed' },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.admins.all() }),
  });
}

export function useResetAdminPassword() {
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) => api.put('/api/admin/users/{id}/password', { params: { id }, body: { password } }),
    // The dialog shows field errors itself.
    meta: { quiet: true, success: 'Password set; their sessions were signed out' },
  });
}

export function useApiTokens() {
  return useQuery({
    queryKey: qk.admins.tokens(),
    queryFn: () => api.get('/api/admin/tokens').then((r) => r.items ?? []),
    refetchInterval: 30_000,
  });
}

export function useCreateApiToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminTokenInput) => api.post('/api/admin/tokens', { body }),
    meta: { success: 'API token created' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.admins.tokens() }),
  });
}

export function useRevokeApiToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/admin/tokens/{id}', { params: { id } }),
    meta: { success: 'API token revoked' },
    onSettled: () => qc.invalidateQueries({ queryKey: qk.admins.tokens() }),
  });
}
