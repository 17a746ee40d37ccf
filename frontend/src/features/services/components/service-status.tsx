import { useTranslation } from 'react-i18next';
import { ServiceBadge } from '@/components/status/service-badge';
import { Badge } from '@/components/ui/badge';
import type { Service, ServiceBadge as Evidence } from '@/lib/api-types';
import { countdown, formatDateTime } from '@/lib/format';

/** A service's status: disabled or expired from the panel, else Traefik's evidence, plus its expiry countdown. */
export function ServiceStatus({ service, now, evidence }: { service: Service; now: number; evidence?: Evidence }) {
  const { t } = useTranslation('services');
  const expired = !service.enabled && service.expiresAt && new Date(service.expiresAt).getTime() <= now;
  if (expired) return <Badge tone="warning" icon="clock">{t('status.expired')}</Badge>;
  if (!service.enabled) return <Badge tone="neutral" icon="power">{t('status.disabled')}</Badge>;
  if (service.maintenance?.enabled)
    return (
      <Badge tone="warning" icon="alert" title={t('status.maintenanceTitle')}>
        {t('status.maintenance')}
      </Badge>
    );
  if (service.expiresAt) {
    const cd = countdown(service.expiresAt, now);
    return (
      <span className="row" style={{ gap: 4, display: 'inline-flex' }}>
        <ServiceBadge evidence={evidence} />
        <Badge tone={cd.seconds < 3600 ? 'warning' : 'neutral'} icon="clock" title={t('status.expiresAt', { date: formatDateTime(service.expiresAt) })}>
          {cd.expired ? t('status.expiring') : t('status.left', { time: cd.text })}
        </Badge>
      </span>
    );
  }
  return <ServiceBadge evidence={evidence} />;
}
