import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { useServices } from '@/lib/api/resources';

/** The kind of service id when it routes TCP connections or UDP datagrams; undefined for HTTP (or while loading). */
export function useStreamKind(id: string): 'tcp' | 'udp' | undefined {
  const kind = useServices().data?.find((s) => s.id === id)?.kind;
  return kind === 'tcp' || kind === 'udp' ? kind : undefined;
}

/**
 * Takes the place of the Security and Access forms for a TCP or UDP service: protections and access
 * rules answer HTTP requests, and the server refuses them for these services. leftover says that
 * some are stored anyway (written by an older release): the page then shows
 * its form below the notice, so that they can be removed, since until then Traefik does not route
 * the service.
 */
export function StreamNotice({ kind, leftover }: { kind: 'tcp' | 'udp'; leftover?: boolean }) {
  const { t } = useTranslation('components');
  return (
    <Alert tone={leftover ? 'danger' : 'info'} title={t('streamNotice.title')}>
      <p>{t(kind === 'tcp' ? 'streamNotice.tcp' : 'streamNotice.udp')}</p>
      {leftover ? <p>{t('streamNotice.leftover')}</p> : null}
    </Alert>
  );
}
