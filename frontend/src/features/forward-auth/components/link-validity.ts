import type { SharedLink } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import i18n from '@/lib/i18n';

type State = 'revoked' | 'used' | 'expired' | 'expires';

/** What the validity column says: a link's status wins over its expiry date. */
export function linkValidity(l: Pick<SharedLink, 'status' | 'expiresAt' | 'usedAt' | 'revokedAt'>, now = Date.now()): { text: string; title: string } {
  const at = (state: State, iso?: string | null) => {
    if (!iso) {
      const word = i18n.t(`forward-auth:validity.${state}.word`);
      return { text: word, title: word };
    }
    return {
      text: i18n.t(`forward-auth:validity.${state}.relative`, { when: formatRelative(iso, now) }),
      title: i18n.t(`forward-auth:validity.${state}.at`, { date: formatDateTime(iso) }),
    };
  };
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
