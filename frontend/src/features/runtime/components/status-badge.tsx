import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';

/** Traefik's status of a router, service or middleware; a status it adds later shows as it writes it. */
export function RuntimeStatusBadge({ status }: { status?: string }) {
  const { t } = useTranslation('runtime');
  const s = (status ?? '').toLowerCase();
  if (s === 'enabled' || s === 'up') return <Badge tone="success" icon="check">{t(`status.${s}`)}</Badge>;
  if (s === 'warning') return <Badge tone="warning" icon="alert">{t('status.warning')}</Badge>;
  if (s === 'disabled' || s === 'down') return <Badge tone="danger" icon="xCircle">{t(`status.${s}`)}</Badge>;
  return <Badge>{status || t('status.unknown')}</Badge>;
}
