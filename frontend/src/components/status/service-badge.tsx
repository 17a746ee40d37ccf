import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { IconName } from '@/components/ui/icons';
import type { Tone } from '@/components/ui/badge';
import type { ServiceBadge as Evidence, ServiceBadgeState } from '@/lib/api-types';

const look: Record<ServiceBadgeState, { tone: Tone; icon: IconName; label: 'live' | 'waiting' | 'error' | 'unknown' }> = {
  live: { tone: 'success', icon: 'check', label: 'live' },
  waiting: { tone: 'info', icon: 'clock', label: 'waiting' },
  error: { tone: 'danger', icon: 'xCircle', label: 'error' },
  unknown: { tone: 'neutral', icon: 'info', label: 'unknown' },
};

/**
 * An enabled service's status as Traefik's evidence shows it: "Live" only
 * when Traefik's runtime runs its routers. Without evidence yet it says
 * "Checking", never "Live".
 */
export function ServiceBadge({ evidence }: { evidence?: Evidence }) {
  const { t } = useTranslation(['components', 'common']);
  if (!evidence)
    return (
      <Badge icon="clock" title={t('serviceBadge.asking')}>
        {t('serviceBadge.checking')}
      </Badge>
    );
  const l = look[evidence.state];
  const title = [evidence.message, ...evidence.errors].join('\n');
  return (
    <Badge tone={l.tone} icon={l.icon} title={title}>
      {t(`serviceBadge.${l.label}`)}
    </Badge>
  );
}
