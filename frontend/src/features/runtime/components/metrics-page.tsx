import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card, PageHeader } from '@/components/ui/card';
import { Sparkline } from '@/components/charts/sparkline';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import { useProxyMetrics, useServices } from '@/lib/api/resources';
import { formatNumber } from '@/lib/format';

/** Traefik's status classes, named as in its metrics. */
const statusClasses = ['2xx', '3xx', '4xx', '5xx'] as const;

export function MetricsPage() {
  const { t } = useTranslation('runtime');
  const metrics = useProxyMetrics();
  const services = useServices();
  const names = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const data = metrics.data;
  const items = data?.items ?? [];
  return (
    <>
      <PageHeader title={t('metrics.title')} description={t('metrics.description')} />
      <div className="stack">
        {metrics.isError ? <ErrorState error={metrics.error} onRetry={() => metrics.refetch()} title={t('metrics.unavailable')} /> : null}
        <RuntimeBanner status={data} />
        {metrics.isPending ? (
          <Card><LoadingRows /></Card>
        ) : data?.configured && data.reachable ? (
          items.length === 0 ? (
            <Card>
              <EmptyState icon="activity" title={t('metrics.emptyTitle')}>
                {t('metrics.emptyBody')}
              </EmptyState>
            </Card>
          ) : (
            <div className="grid-2">
              {items.map((m) => {
                const name = m.name ?? names.get(m.serviceId) ?? m.serviceId;
                const total = m.status['2xx'] + m.status['3xx'] + m.status['4xx'] + m.status['5xx'] || 1;
                return (
                  <Card key={m.serviceId}>
                    <div className="card-body stack-sm">
                      <div className="row-between">
                        <Link to={`/services/${m.serviceId}`} className="service-name">{name}</Link>
                        <span className="small muted">{t('metrics.rate', { rate: formatNumber(m.requestRate, 2) })}</span>
                      </div>
                      <Sparkline values={m.history?.map((h) => h.requestRate) ?? []} width={320} height={56} fluid label={t('metrics.sparkline', { name, count: Math.round((m.windowSeconds ?? 600) / 60) })} />
                      <dl className="kv small">
                        {m.requests !== undefined ? (
                          <>
                            <dt>{t('metrics.requests')}</dt>
                            <dd>
                              {formatNumber(m.requests, 0)}
                              {m.windowSeconds ? <span className="muted"> {t('metrics.window', { count: Math.round(m.windowSeconds / 60) })}</span> : null}
                            </dd>
                          </>
                        ) : null}
                        <dt>{t('metrics.errorRate')}</dt>
                        <dd>{t('metrics.percent', { value: formatNumber(m.errorRate * 100, 1) })}</dd>
                        <dt>{t('metrics.latency')}</dt>
                        <dd>{t('metrics.ms', { value: formatNumber(m.avgLatencyMs, 0) })}</dd>
                        <dt>{t('metrics.statusCodes')}</dt>
                        <dd>
                          <div className="status-bar" aria-hidden="true">
                            {statusClasses.map((k) =>
                              m.status[k] ? <span key={k} className={`sb-${k}`} style={{ width: `${(m.status[k] / total) * 100}%` }} /> : null,
                            )}
                          </div>
                          <div className="row" style={{ gap: 10, marginTop: 4 }}>
                            {statusClasses.map((k) => (
                              <span key={k} className="nowrap">
                                <span className={`sb-dot sb-${k}`} aria-hidden="true" /> {k} {formatNumber((m.status[k] / total) * 100, 0)}%
                              </span>
                            ))}
                          </div>
                        </dd>
                      </dl>
                    </div>
                  </Card>
                );
              })}
            </div>
          )
        ) : null}
      </div>
    </>
  );
}
