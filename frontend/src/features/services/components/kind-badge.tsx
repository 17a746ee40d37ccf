import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { Service } from '@/lib/api-types';

/** Routes TCP connections or UDP datagrams rather than HTTP requests: protections, hostnames as links and request figures do not apply. */
export function isStream(kind: Service['kind'] | undefined): kind is 'tcp' | 'udp' {
  return kind === 'tcp' || kind === 'udp';
}

/**
 * "TCP" or "UDP" beside a service's name; nothing for an HTTP service (proxy or redirect), the
 * usual case. Looks like the container badges beside it: an icon, a word, the why in its title.
 */
export function KindBadge({ kind }: { kind: Service['kind'] | undefined }) {
  const { t } = useTranslation('services');
  if (!isStream(kind)) return null;
  return (
    <Badge tone="info" icon="layers" title={t(kind === 'tcp' ? 'kind.tcpTitle' : 'kind.udpTitle')}>
      {t(kind === 'tcp' ? 'kind.tcp' : 'kind.udp')}
    </Badge>
  );
}
