import { Badge } from '@/components/ui/badge';
import type { IconName } from '@/components/ui/icons';
import type { Tone } from '@/components/ui/badge';
import type { ServiceBadge as Evidence, ServiceBadgeState } from '@/lib/api-types';

const look: Record<ServiceBadgeState, { tone: Tone; icon: IconName; label: string }> = {
  live: { tone: 'success', icon: 'check', label: 'Live' },
  waiting: { tone: 'info', icon: 'clock', label: 'Waiting' },
  error: { tone: 'danger', icon: 'xCircle', label: 'Error' },
  unknown: { tone: 'neutral', icon: 'info', label: 'Unknown' },
};

/**
 * An enabled service's status as Traefik's evidence shows it: "Live" only
 * when Traefik's runtime runs its routers. Without evidence yet it says
 * "Checking", never "Live".
 */
export function ServiceBadge({ evidence }: { evidence?: Evidence }) {
  if (!evidence) return <Badge icon="clock" title="Asking Traefik">Checking</Badge>;
  const l = look[evidence.state];
  const title = [evidence.message, ...evidence.errors].join('\n');
  return (
    <Badge tone={l.tone} icon={l.icon} title={title}>
      {l.label}
    </Badge>
  );
}
