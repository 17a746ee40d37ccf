import { ExposureBadge } from '@/components/status/exposure-badge';
import { Icon } from '@/components/ui/icons';
import type { Protection } from '@/lib/api-types';

const items = [
  { key: 'basicAuth', icon: 'key', label: 'Basic auth' },
  { key: 'sso', icon: 'users', label: 'SSO' },
  { key: 'sharedLinks', icon: 'link', label: 'Shared links' },
  { key: 'tokens', icon: 'terminal', label: 'Machine tokens' },
  { key: 'emailCode', icon: 'mail', label: 'E-mail code' },
  { key: 'people', icon: 'user', label: 'People and groups' },
] as const;

/**
 * Small icons, one per protection; state is in each title and the screen-reader text, not only the
 * colour. A protected service whose access rules let everyone in says so in a badge: the icons alone
 * would read as protected.
 */
export function ProtectionIcons({ protection }: { protection?: Protection }) {
  const on = items.filter((i) => protection?.[i.key]);
  return (
    <span className="icon-row">
      {items.map((i) => {
        const active = !!protection?.[i.key];
        return (
          <span key={i.key} className={`prot-icon${active ? ' on' : ''}`} title={`${i.label}: ${active ? 'on' : 'off'}`}>
            <Icon name={i.icon} size={14} />
          </span>
        );
      })}
      <span className="sr-only">{on.length ? `Protections on: ${on.map((i) => i.label).join(', ')}` : 'No protection'}</span>
      {on.length === 0 ? (
        protection?.exposure === 'none' ? (
          <span className="small faint">closed by rules</span>
        ) : (
          <span className="small faint">public</span>
        )
      ) : protection?.exposure === 'everyone' || protection?.exposure === 'some' ? (
        <ExposureBadge protection={protection} />
      ) : (
        <span className="sr-only">, protected</span>
      )}
    </span>
  );
}
