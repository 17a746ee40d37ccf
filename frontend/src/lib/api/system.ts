import { useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import type { AdminUser } from '../api-types';
import { qk } from '../query-keys';

export const getSystem = () => api.get('/api/system');

export function useSystem() {
  return useQuery({ queryKey: qk.system(), queryFn: getSystem, staleTime: 60_000 });
}

export function useMe(enabled = true) {
  return useQuery({
    enabled,
    queryKey: qk.me(),
    queryFn: () => api.get('/api/admin/me', { skipAuthRedirect: true }),
    retry: false,
    staleTime: 60_000,
    meta: { quiet: true },
  });
}

/**
 * The signed-in administrator's role, from GET /api/admin/me. Pages hide write
 * controls for a viewer; the server refuses their writes either way.
 */
export function useRole(): AdminUser['role'] | undefined {
  return useMe().data?.user.role;
}

/** Whether the signed-in administrator may make changes (not a viewer). */
export function useCanWrite(): boolean {
  return useRole() !== 'viewer';
}
