import type { SharedLink } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';

/** What the validity column says: a link's status wins over its expiry date. */
export function linkValidity(l: Pick<SharedLink, 'status' | 'expiresAt' | 'usedAt' | 'revokedAt'>, now = Date.now()): { text: string; title: string } {
  const at = (verb: string, iso?: string | null) =>
    iso ? { text: `${verb} ${formatRelative(iso, now)}`, title: `${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${formatDateTime(iso)}` } : { text: verb, title: verb };
  switch (l.status) {
    case 'revoked':
      return at('revoked', l.revokedAt);
    case 'used':
      return at('used', l.usedAt);
    case 'expired':
      return at('expired', l.expiresAt);
    default:
      return at('expires', l.expiresAt);
  }
}
