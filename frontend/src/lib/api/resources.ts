// Read-only queries several features need (services list for names, domains for
// hostnames, Traefik lookups for pickers). Writes stay in their own feature.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import type { ProxyEntrypoint } from '../api-types';
import { qk } from '../query-keys';

export function useServices() {
  return useQuery({
    queryKey: qk.services.list(),
    queryFn: () => api.get('/api/services').then((r) => r.items ?? []),
  });
}

export function useDomains() {
  return useQuery({
    queryKey: qk.domains.list(),
    queryFn: () => api.get('/api/domains').then((r) => r.items ?? []),
  });
}

export function useGlobalConfig() {
  return useQuery({ queryKey: qk.config(), queryFn: () => api.get('/api/config') });
}

// Traefik lookups are best effort: pickers fall back to free text, so failures stay quiet.
const lookup = { meta: { quiet: true }, staleTime: 30_000, retry: false } as const;

/** Names worth offering in entrypoint pickers: Traefik's own API entrypoint is left out. */
export function entrypointChoices(items?: ProxyEntrypoint[]): string[] {
  return (items ?? []).map((e) => e.name).filter((n) => n !== 'traefik');
}

export function useProxyEntrypoints() {
  return useQuery({
    ...lookup,
    queryKey: qk.proxy.entrypoints(),
    queryFn: () => api.get('/api/proxy/entrypoints'),
  });
}

export function useProxyMiddlewares() {
  return useQuery({
    ...lookup,
    queryKey: qk.proxy.middlewares(),
    queryFn: () => api.get('/api/proxy/middlewares'),
  });
}

export function useCertResolvers() {
  return useQuery({
    ...lookup,
    queryKey: qk.proxy.certResolvers(),
    queryFn: () => api.get('/api/proxy/cert-resolvers'),
  });
}

/** Backend health; with `probe` the panel also TCP-connects to every target. */
export function useProxyHealth(probe = false) {
  return useQuery({
    ...lookup,
    queryKey: [...qk.proxy.health(), { probe }],
    queryFn: () => api.get('/api/proxy/health', { query: probe ? { probe } : {} }),
    refetchInterval: probe ? false : 30_000,
    staleTime: probe ? 0 : 2_000,
  });
}

export function useProxyMetrics() {
  return useQuery({
    ...lookup,
    // Live views: refetch on every visit (the backend caches Traefik's answers for 3 s).
    staleTime: 2_000,
    queryKey: qk.proxy.metrics(),
    queryFn: () => api.get('/api/proxy/metrics'),
    refetchInterval: 30_000,
  });
}

export function useRuntime() {
  return useQuery({
    ...lookup,
    // Live views: refetch on every visit (the backend caches Traefik's answers for 3 s).
    staleTime: 2_000,
    queryKey: qk.proxy.runtime(),
    queryFn: () => api.get('/api/proxy/runtime'),
    refetchInterval: 30_000,
  });
}

export function useCertificates() {
  return useQuery({
    ...lookup,
    // Live views: refetch on every visit (the backend caches Traefik's answers for 3 s).
    staleTime: 2_000,
    queryKey: qk.proxy.certificates(),
    queryFn: () => api.get('/api/proxy/certificates'),
  });
}

/** What Traefik fetched and runs: polls of the configuration and each service's badge. */
export function useProxyStatus() {
  return useQuery({
    queryKey: qk.proxy.status(),
    queryFn: () => api.get('/api/proxy/status'),
    refetchInterval: 5_000,
    staleTime: 1_000,
    meta: { quiet: true },
  });
}
