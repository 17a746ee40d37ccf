import type { Domain, Hostname, MatchRule, RuleType } from '@/lib/api-types';

const matcher: Record<RuleType, string> = {
  pathPrefix: 'PathPrefix',
  path: 'Path',
  header: 'Header',
  query: 'Query',
  method: 'Method',
  clientIP: 'ClientIP',
};

const ruleOrder: RuleType[] = ['pathPrefix', 'path', 'header', 'query', 'method', 'clientIP'];

const q = (v: string) => `\`${v}\``;

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `*.example.com` needs HostRegexp in Traefik v3; plain names use Host. */
function hostMatcher(host: string): string {
  if (host.startsWith('*.')) return `HostRegexp(${q(`^[^.]+\\.${escapeRegex(host.slice(2))}$`)})`;
  return `Host(${q(host)})`;
}

function ruleMatcher(r: MatchRule): string {
  const fn = matcher[r.type];
  if (r.type === 'header' || r.type === 'query') return `${fn}(${q(r.name ?? '')}, ${q(r.value)})`;
  return `${fn}(${q(r.value)})`;
}

function group(parts: string[]): string {
  return parts.length > 1 ? `(${parts.join(' || ')})` : (parts[0] ?? '');
}

/**
 * The Traefik rule string for a service, as the panel generates it: hosts OR-ed, rules of
 * the same type OR-ed, different types AND-ed with the host match.
 */
export function buildRule(hosts: string[], rules: MatchRule[]): string {
  const cleanHosts = hosts.map((h) => h.trim()).filter(Boolean);
  const complete = rules.filter((r) => r.value.trim() && ((r.type !== 'header' && r.type !== 'query') || (r.name ?? '').trim()));
  const byType = new Map<RuleType, string[]>();
  for (const r of complete) {
    const list = byType.get(r.type) ?? [];
    list.push(ruleMatcher({ ...r, value: r.value.trim(), name: r.name?.trim() }));
    byType.set(r.type, list);
  }
  const parts: string[] = [];
  if (cleanHosts.length) parts.push(group(cleanHosts.map(hostMatcher)));
  // The panel emits rule types in a fixed order, whatever order they were added in.
  for (const type of ruleOrder) {
    const list = byType.get(type);
    if (list) parts.push(group(list));
  }
  return parts.join(' && ');
}

/** The full names a hostname entry stands for, given the selected domain. */
export function hostnameToFqdn(h: { type: Hostname['type']; value?: string }, domain?: Pick<Domain, 'domain'> | null): string {
  const value = (h.value ?? '').trim().toLowerCase().replace(/\.$/, '');
  switch (h.type) {
    case 'apex':
      return domain?.domain ?? '';
    case 'subdomain':
      return value && domain ? `${value}.${domain.domain}` : '';
    case 'custom':
      return value;
  }
}
