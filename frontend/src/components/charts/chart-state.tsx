import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrafficState } from '@/lib/api/traffic';
import { asSentence } from '@/lib/format';
import { Icon, type IconName } from '../ui/icons';
import { ErrorState } from '../ui/states';

/** Traefik's documentation on its Prometheus metrics, which the history is read from. */
export const metricsDocsUrl = 'https://doc.traefik.io/traefik/observability/metrics/prometheus/';

/** Where a chart would be, a short note saying why it is empty. */
export function ChartNote({ icon = 'activity', title, children, compact }: { icon?: IconName; title: ReactNode; children?: ReactNode; compact?: boolean }) {
  return (
    <div className={`chart-note${compact ? ' compact' : ''}`} role="note">
      <Icon name={icon} size={compact ? 16 : 20} />
      <div>
        <div className="chart-note-title">{title}</div>
        {children ? <div className="small muted">{children}</div> : null}
      </div>
    </div>
  );
}

/**
 * The reason a whole answer has nothing to draw, from its state: Traefik's metrics not
 * configured, with the server's reason (what exactly is missing; server messages stay in
 * English) and the way to enable them, or no traffic yet (the state says it all, in the
 * page's language). Null when the state is ok.
 */
export function TrafficEmpty({ state, reason, compact }: { state: TrafficState; reason?: string; compact?: boolean }) {
  const { t } = useTranslation('components');
  if (state === 'ok') return null;
  if (state === 'no_metrics')
    return (
      <ChartNote icon="alert" title={t('charts.noMetrics.title')} compact={compact}>
        {reason ? asSentence(reason) : t('charts.noMetrics.text')}{' '}
        <a href={metricsDocsUrl} target="_blank" rel="noreferrer noopener">
          {t('charts.noMetrics.docs')}
        </a>
      </ChartNote>
    );
  return (
    <ChartNote icon="activity" title={t('charts.noTraffic.title')} compact={compact}>
      {t('charts.noTraffic.text')}
    </ChartNote>
  );
}

/** A failed history request, with a retry. */
export function TrafficError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation('components');
  return <ErrorState error={error} onRetry={onRetry} title={t('charts.loadFailed')} />;
}
