import { describe, expect, it } from 'vitest';
import { resolverHint } from './resolver-hint';

const items = [
  { name: 'le', sources: ['router:web@docker', 'domain:example.com'] },
  { name: 'dns', sources: ['managed'] },
  { name: 'old', sources: ['domain:old.example'] },
];

describe('resolverHint', () => {
  it.each([
    ['not configured, no names', { configured: false, reachable: false, items: [] }, 'Traefik not connected, so its resolvers cannot be discovered. The name of a certresolver in Traefik, e.g. letsencrypt. Leave empty for no TLS resolver.'],
    [
      'not configured: never "discovered"',
      { configured: false, reachable: false, items },
      'Traefik not connected, so its resolvers cannot be discovered. In the managed static configuration: dns. Used by your domains: le, old. Leave empty for no TLS resolver.',
    ],
    ['configured but unreachable', { configured: true, reachable: false, items }, 'Traefik not connected, so its resolvers cannot be discovered. In the managed static configuration: dns. Used by your domains: le, old. Leave empty for no TLS resolver.'],
    [
      'connected: names from Traefik',
      { configured: true, reachable: true, items },
      'Discovered in Traefik: le. In the managed static configuration: dns. Used by your domains: le, old. Leave empty for no TLS resolver.',
    ],
    ['connected, none in use', { configured: true, reachable: true, items: [] }, 'Traefik uses no certificate resolver yet. Leave empty for no TLS resolver.'],
    ['still loading', undefined, 'Traefik not connected, so its resolvers cannot be discovered. The name of a certresolver in Traefik, e.g. letsencrypt. Leave empty for no TLS resolver.'],
  ])('%s', (_name, view, want) => {
    expect(resolverHint(view)).toBe(want);
  });
});
