import type { CertResolver, RuntimeStatus } from '@/lib/api-types';

/**
 * The hint under the certificate-resolver field. Only names seen on Traefik's own routers
 * or entrypoints count as "discovered in Traefik", and only while its API answers; names
 * from the panel's domains or managed static configuration are labelled as such.
 */
export function resolverHint(view?: (Partial<RuntimeStatus> & { items?: CertResolver[] }) | null): string {
  const items = view?.items ?? [];
  const connected = !!view?.configured && !!view.reachable;
  const from = (prefixes: string[]) =>
    items.filter((r) => (r.sources ?? []).some((s) => prefixes.some((p) => s === p || s.startsWith(`${p}:`)))).map((r) => r.name);
  const parts: string[] = [];
  if (connected) {
    const seen = from(['router', 'entrypoint']);
    parts.push(seen.length ? `Discovered in Traefik: ${seen.join(', ')}.` : 'Traefik uses no certificate resolver yet.');
  } else {
    parts.push('Traefik not connected, so its resolvers cannot be discovered.');
  }
  const managed = from(['managed']);
  if (managed.length) parts.push(`In the managed static configuration: ${managed.join(', ')}.`);
  const domains = from(['domain']);
  if (domains.length) parts.push(`Used by your domains: ${domains.join(', ')}.`);
  if (!connected && !managed.length && !domains.length) parts.push('The name of a certresolver in Traefik, e.g. letsencrypt.');
  parts.push('Leave empty for no TLS resolver.');
  return parts.join(' ');
}
