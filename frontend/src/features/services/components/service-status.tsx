import { Badge } from '@/components/ui/badge';
import type { Service } from '@/lib/api-types';
import { countdown } from '@/lib/format';

export function ServiceStatus({ service, now }: { service: Service; now: number }) {
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
      <Badge tone={cd.seconds < 3600 ? 'warning' : 'success'} icon="clock" title={`Expires ${new Date(service.expiresAt).toLocaleString()}`}>
        {cd.expired ? 'Expiring' : `Live · ${cd.text} left`}
      </Badge>
    );
  }
  return <Badge tone="success" icon="check">Live</Badge>;
}
