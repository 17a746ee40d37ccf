import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AccessDecision, AccessLogEntry } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

/** Rows kept in memory by a live view; older ones fall off the end. */
export const LOG_CAP = 500;
export const LOG_POLL_MS = 2000;

export type LogFilters = { decision?: string; address?: string; identity?: string; serviceId?: string };
export type LogState = { rows: AccessLogEntry[]; capacity: number; polls: number };

/** Every so often a poll asks for the newest entries without `after`, to notice a restarted panel. */
const FULL_EVERY = 15;

/**
 * Adds newly fetched entries to the rows on screen: newest first, each sequence number once,
 * at most `cap` rows. Answers `current` itself when nothing is new, so nothing re-renders.
 */
export function mergeNewestFirst(current: AccessLogEntry[], incoming: AccessLogEntry[], cap = LOG_CAP): AccessLogEntry[] {
  const seen = new Set(current.map((e) => e.seq));
  const fresh = incoming.filter((e) => !seen.has(e.seq));
  if (fresh.length === 0) return current.length > cap ? current.slice(0, cap) : current;
  return [...fresh, ...current].sort((a, b) => b.seq - a.seq).slice(0, cap);
}

/** One page of the log, of a service or of every service, after `after` when given. */
export function fetchLogPage(serviceId: string | undefined, filters: LogFilters, after?: number, signal?: AbortSignal) {
  const query = {
    decision: (filters.decision || undefined) as AccessDecision | undefined,
    address: filters.address || undefined,
    identity: filters.identity || undefined,
    after,
    limit: 100,
  };
  return serviceId
    ? api.get('/api/services/{id}/access-log', { params: { id: serviceId }, query, signal })
    : api.get('/api/access-log', { query: { serviceId: filters.serviceId || undefined, ...query }, signal });
}

/**
 * A live access log: the first fetch takes the newest entries, then every 2 s only those
 * after the newest one shown (`after=<seq>`), merged in. New filters start a fresh list.
 */
export function useAccessLog(serviceId: string | undefined, filters: LogFilters, paused: boolean) {
  const qc = useQueryClient();
  const clean = Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as Record<string, string>;
  const key = qk.access.log(serviceId ?? 'all', clean);
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<LogState> => {
      const prev = qc.getQueryData<LogState>(key);
      const polls = (prev?.polls ?? 0) + 1;
      const top = prev?.rows[0]?.seq;
      const full = top === undefined || polls % FULL_EVERY === 0;
      const page = await fetchLogPage(serviceId, clean, full ? undefined : top, signal);
      const items = page.items ?? [];
      // The log lives in memory: after a restart its sequence starts again, below what is on screen.
      const restarted = full && top !== undefined && (items[0]?.seq ?? 0) < top;
      return { rows: mergeNewestFirst(restarted ? [] : (prev?.rows ?? []), items), capacity: page.capacity, polls };
    },
    refetchInterval: paused ? false : LOG_POLL_MS,
    staleTime: 0,
    // Failures show inline next to the table; a toast every 2 s would drown the page.
    meta: { quiet: true },
    retry: false,
  });
}
