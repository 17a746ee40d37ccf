import { useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import type { AdminUser, SystemInfo } from '../api-types';
import { qk } from '../query-keys';

export const getSystem = () => api.get<SystemInfo>('/api/system');

export function useSystem() {
  return useQuery({ queryKey: qk.system(), queryFn: getSystem, staleTime: 60_000 });
}

export function useMe(enabled = true) {
  return useQuery({
    enabled,
    queryKey: qk.me(),
    queryFn: () => api.get<{ user: AdminUser }>('/api/admin/me', { skipAuthRedirect: true }),
    retry: false,
    staleTime: 60_000,
    meta: { quiet: true },
  });
}
