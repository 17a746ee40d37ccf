import { Link } from 'react-router';
import { Card, PageHeader } from '@/components/ui/card';
import { Sparkline } from '@/components/ui/sparkline';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import { useProxyMetrics, useServices } from '@/lib/api/resources';
import { formatNumber } from '@/lib/format';

export function MetricsPage() {
  const metrics = useProxyMetrics();
  const services = useServices();
  const names = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const data = metrics.data;
  const items = data?.items ?? [];
  return (
    <>
      <PageHeader title="Metrics" description="Per-service traffic from Traefik's Prometheus metrics: request rate, status codes, error rate and latency." />
      <div className="stack">
        {metrics.isError ? <ErrorState error={metrics.error} onRetry={() => metrics.refetch()} title="The metrics view is unavailable" /> : null}
        <RuntimeBanner status={data} />
        {metrics.isPending ? (
          <Card><LoadingRows /></Card>
        ) : data?.configured && data.reachable ? (
          items.length === 0 ? (
            <Card><EmptyState icon="activity" title="No traffic recorded yet">Metrics appear once a service has handled requests.</EmptyState></Card>
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
                        <span className="small muted">{formatNumber(m.requestRate, 2)} req/s</span>
                      </div>
                      <Sparkline values={m.history?.map((h) => h.requestRate) ?? []} width={320} height={56} fluid label={`${name}: request rate over the last ${Math.round((m.windowSeconds ?? 600) / 60)} minutes`} />
                      <dl className="kv small">
                        {m.requests !== undefined ? (
                          <>
                            <dt>Requests</dt>
                            <dd>
                              {formatNumber(m.requests, 0)}
                              {m.windowSeconds ? <span className="muted"> in the last {Math.round(m.windowSeconds / 60)} min</span> : null}
                            </dd>
                          </>
                        ) : null}
                        <dt>Error rate</dt>
                        <dd>{formatNumber(m.errorRate * 100, 1)} %</dd>
                        <dt>Avg latency</dt>
                        <dd>{formatNumber(m.avgLatencyMs, 0)} ms</dd>
                        <dt>Status codes</dt>
                        <dd>
                          <div className="status-bar" aria-hidden="true">
                            {(['2xx', '3xx', '4xx', '5xx'] as const).map((k) =>
                              m.status[k] ? <span key={k} className={`sb-${k}`} style={{ width: `${(m.status[k] / total) * 100}%` }} /> : null,
                            )}
                          </div>
                          <div className="row" style={{ gap: 10, marginTop: 4 }}>
                            {(['2xx', '3xx', '4xx', '5xx'] as const).map((k) => (
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
