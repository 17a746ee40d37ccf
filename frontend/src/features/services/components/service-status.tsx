import { ServiceBadge } from '@/components/status/service-badge';
import { Badge } from '@/components/ui/badge';
import type { Service, ServiceBadge as Evidence } from '@/lib/api-types';
import { countdown } from '@/lib/format';

/** A service's status: disabled or expired from the panel, else Traefik's evidence, plus its expiry countdown. */
export function ServiceStatus({ service, now, evidence }: { service: Service; now: number; evidence?: Evidence }) {
  const expired = !service.enabled && service.expiresAt && new Date(service.expiresAt).getTime() <= now;
  if (expired) return <Badge tone="warning" icon="clock">Expired</Badge>;
  if (!service.enabled) return <Badge tone="neutral" icon="power">Disabled</Badge>;
  if (service.maintenance?.enabled)
    return (
      <Badge tone="warning" icon="alert" title="Visitors see the maintenance page">
        Maintenance
      </Badge>
    );
  if (service.expiresAt) {
    const cd = countdown(service.expiresAt, now);
    return (
      <span className="row" style={{ gap: 4, display: 'inline-flex' }}>
        <ServiceBadge evidence={evidence} />
        <Badge tone={cd.seconds < 3600 ? 'warning' : 'neutral'} icon="clock" title={`Expires ${new Date(service.expiresAt).toLocaleString()}`}>
          {cd.expired ? 'Expiring' : `${cd.text} left`}
        </Badge>
      </span>
    );
  }
  return <ServiceBadge evidence={evidence} />;
}
