import type { OidcPreset } from '@/lib/api-types';
import type { Values } from './client-dialog';

/** Stands in a preset's URIs for the chosen service's hostname. */
export const hostPlaceholder = '{host}';

/** The non-empty lines of a text area, trimmed. */
export function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** The fields a preset fills for an app on host ("" keeps the placeholder for the person to type). */
export function fromPreset(p: OidcPreset, host: string): Partial<Values> {
  const fill = (u: string) => (host ? u.replaceAll(hostPlaceholder, host) : u);
  return {
    name: p.name,
    public: p.public,
    redirectUris: p.redirectUris.map(fill).join('\n'),
    postLogoutRedirectUris: p.postLogoutRedirectUris.map(fill).join('\n'),
    backchannelLogoutUri: fill(p.backchannelLogoutUri),
    scopes: p.scopes,
    grantTypes: p.grantTypes,
    claimMappings: p.claimMappings.length ? JSON.stringify(p.claimMappings, null, 2) : '',
  };
}
