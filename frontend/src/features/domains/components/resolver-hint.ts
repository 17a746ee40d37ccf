import type { CertResolver, RuntimeStatus } from '@/lib/api-types';
import i18n from '@/lib/i18n';

/**
 * The hint under the certificate-resolver field. Only names seen on Traefik's own routers
 * or entrypoints count as "discovered in Traefik", and only while its API answers; names
 * from the panel's domains or managed static configuration are labelled as such.
 */
export function resolverHint(view?: (Partial<RuntimeStatus> & { items?: CertResolver[] }) | null): string {
  const t = i18n.t;
  const items = view?.items ?? [];
  const connected = !!view?.configured && !!view.reachable;
  const from = (prefixes: string[]) =>
    items.filter((r) => (r.sources ?? []).some((s) => prefixes.some((p) => s === p || s.startsWith(`${p}:`)))).map((r) => r.name);
  const parts: string[] = [];
  if (connected) {
    const seen = from(['router', 'entrypoint']);
    parts.push(seen.length ? t('domains:resolverHint.discovered', { names: seen.join(', ') }) : t('domains:resolverHint.noneInUse'));
  } else {
    parts.push(t('domains:resolverHint.notConnected'));
  }
  const managed = from(['managed']);
  if (managed.length) parts.push(t('domains:resolverHint.managed', { names: managed.join(', ') }));
  const domains = from(['domain']);
  if (domains.length) parts.push(t('domains:resolverHint.domains', { names: domains.join(', ') }));
  if (!connected && !managed.length && !domains.length) parts.push(t('domains:resolverHint.example'));
  parts.push(t('domains:resolverHint.empty'));
  return parts.join(' ');
}
