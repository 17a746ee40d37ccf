// Traffic over time (GET /api/traffic, /api/services/{id}/traffic, /api/traffic/services):
// read by the dashboard, the services list, a service's Traffic tab and the access log.
import { useQuery } from '@tanstack/react-query';
import { api, isApiError } from '../api-client';
import type { ServicesTraffic, Traffic, TrafficValues } from '../api-types';
import { qk } from '../query-keys';

/** The windows the range picker offers; a zoom narrows one with from/to. */
export const trafficRanges = ['1h', '24h', '7d', '30d'] as const;
export type TrafficRange = (typeof trafficRanges)[number];

/** ok: the series carry data; no_metrics: Traefik's metrics are not read; no_traffic: nothing recorded yet. */
export type TrafficState = Traffic['state'];
export type TrafficSeriesName = keyof Traffic['series'];
export type SeriesValues = TrafficValues;

/** The window asked for: a range, or a zoomed part of it (RFC 3339 instants). */
export type TrafficWindow = { range: TrafficRange; from?: string; to?: string };

export function fetchTraffic(serviceId: string | undefined, w: TrafficWindow, signal?: AbortSignal): Promise<Traffic> {
  const query = { range: w.range, from: w.from, to: w.to };
  return serviceId ? api.get('/api/services/{id}/traffic', { params: { id: serviceId }, query, signal }) : api.get('/api/traffic', { query, signal });
}

export function fetchServicesTraffic(range: TrafficRange, points: number, signal?: AbortSignal): Promise<ServicesTraffic> {
  return api.get('/api/traffic/services', { query: { range, points }, signal });
}

// New points arrive once a minute (the panel stores per-minute steps); longer windows
// change too slowly to be worth asking more often than every five minutes.
function refreshMs(w: TrafficWindow): number | false {
  if (w.from || w.to) return false;
  return w.range === '1h' || w.range === '24h' ? 60_000 : 300_000;
}

// A chart shows its own error and empty states, so failures stay out of the toasts.
const quiet = { meta: { quiet: true }, retry: false } as const;

/** The global history (no serviceId) or a service's. */
export function useTraffic(serviceId: string | undefined, w: TrafficWindow, enabled = true) {
  return useQuery({
    ...quiet,
    queryKey: qk.traffic.window(serviceId ?? '', w.range, w.from, w.to),
    queryFn: ({ signal }) => fetchTraffic(serviceId, w, signal),
    // A service that is gone (404) stays gone: no point asking every minute.
    refetchInterval: (q) => (isGone(q.state.error) ? false : refreshMs(w)),
    staleTime: 30_000,
    // A new range or zoom keeps the old chart on screen until its answer arrives (the same
    // scope only: another service's history never stands in).
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[2] === (serviceId ?? '') ? prev : undefined),
    enabled,
  });
}

/** Every service's totals with a sparkline, in one request. */
export function useServicesTraffic(range: TrafficRange = '24h', points = 24) {
  return useQuery({
    ...quiet,
    queryKey: qk.traffic.services(range, points),
    queryFn: ({ signal }) => fetchServicesTraffic(range, points, signal),
    refetchInterval: 60_000,
    staleTime: 30_000,
  });
}

/** True when the history was refused because its service does not exist (404). */
export function isGone(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** True when a series has at least one value above zero. */
export function hasValues(values?: SeriesValues | null): boolean {
  return !!values?.some((v) => v !== null && v > 0);
}

/** True when a series has at least one known value (zero included). */
export function hasKnown(values?: SeriesValues | null): boolean {
  return !!values?.some((v) => v !== null);
}
