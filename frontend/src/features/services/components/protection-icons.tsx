import { useTranslation } from 'react-i18next';
import { ExposureBadge } from '@/components/status/exposure-badge';
import { Icon } from '@/components/ui/icons';
import type { Protection } from '@/lib/api-types';

const items = [
  { key: 'basicAuth', icon: 'key' },
  { key: 'sso', icon: 'users' },
  { key: 'sharedLinks', icon: 'link' },
  { key: 'tokens', icon: 'terminal' },
  { key: 'emailCode', icon: 'mail' },
  { key: 'people', icon: 'user' },
] as const;

/**
 * Small icons, one per protection; state is in each title and the screen-reader text, not only the
 * colour. A protected service whose access rules let everyone in says so in a badge: the icons alone
 * would read as protected.
 */
export function ProtectionIcons({ protection }: { protection?: Protection }) {
  const { t } = useTranslation('services');
  const on = items.filter((i) => protection?.[i.key]);
  return (
    <span className="icon-row">
      {items.map((i) => {
        const active = !!protection?.[i.key];
        return (
          <span key={i.key} className={`prot-icon${active ? ' on' : ''}`} title={active ? t('protection.on', { name: t(`protection.kinds.${i.key}`) }) : t('protection.off', { name: t(`protection.kinds.${i.key}`) })}>
            <Icon name={i.icon} size={14} />
          </span>
        );
      })}
      <span className="sr-only">{on.length ? t('protection.list', { names: on.map((i) => t(`protection.kinds.${i.key}`)).join(', ') }) : t('protection.none')}</span>
      {on.length === 0 ? (
        protection?.exposure === 'none' ? (
          <span className="small faint">{t('protection.closed')}</span>
        ) : (
          <span className="small faint">{t('protection.public')}</span>
        )
      ) : protection?.exposure === 'everyone' || protection?.exposure === 'some' ? (
        <ExposureBadge protection={protection} />
      ) : (
        <span className="sr-only">{t('protection.protected')}</span>
      )}
    </span>
  );
}
