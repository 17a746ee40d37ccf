import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import i18n from '@/lib/i18n';
import type { Protection } from '@/lib/api-types';

const labels = {
  basicAuth: 'components:exposure.protections.basicAuth',
  sso: 'components:exposure.protections.sso',
  sharedLinks: 'components:exposure.protections.sharedLinks',
  tokens: 'components:exposure.protections.tokens',
} as const;

/** The protections a service has switched on, by name. */
export function protectionNames(p?: Protection): string[] {
  return (Object.keys(labels) as (keyof typeof labels)[]).filter((k) => p?.[k]).map((k) => i18n.t(labels[k]));
}

/**
 * Says, in words, when a protected service's access rules let people in without signing in: the
 * server computes the exposure from the global and the service's rules, so nothing is guessed here.
 * Unprotected services say "public" elsewhere; a protected one that asks everyone shows nothing.
 */
export function ExposureBadge({ protection }: { protection?: Protection }) {
  const { t } = useTranslation(['components', 'common']);
  const names = protectionNames(protection);
  if (!names.length) return null;
  if (protection?.exposure === 'everyone') {
    return (
      <Badge tone="danger" icon="alert" title={t('exposure.everyoneTitle', { names: names.join(', ') })}>
        {t('exposure.everyone')}
      </Badge>
    );
  }
  if (protection?.exposure === 'some') {
    return (
      <Badge tone="warning" icon="eye" title={t('exposure.someTitle')}>
        {t('exposure.some')}
      </Badge>
    );
  }
  return null;
}
