import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { qk } from '@/lib/query-keys';

export function useConflicts() {
  return useQuery({
    queryKey: qk.proxy.conflicts(),
    queryFn: () => api.get('/api/proxy/conflicts'),
    meta: { quiet: true },
    retry: false,
    staleTime: 2_000,
    refetchInterval: 30_000,
  });
}

/** Traefik's API returns maps in some places and lists in others; the panel may pass either. */
export function toList<T extends { name: string }>(v: unknown): T[] {
  if (!v) return [];
  if (Array.isArray(v)) return v as T[];
  if (typeof v === 'object') return Object.entries(v as Record<string, object>).map(([name, x]) => ({ name, ...x }) as unknown as T);
  return [];
}
