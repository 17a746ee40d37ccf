import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TrafficEmpty, TrafficError } from '@/components/charts/chart-state';
import { Sparkline } from '@/components/charts/sparkline';
import { StatusChart } from '@/components/charts/traffic-charts';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadingRows } from '@/components/ui/states';
import { useServicesTraffic, useTraffic } from '@/lib/api/traffic';
import type { ServiceTraffic, Traffic } from '@/lib/api-types';
import { formatCompact, formatNumber, formatPercent } from '@/lib/format';

const TOP = 5;

/** The dashboard's traffic: the last 24 hours in total, and the busiest and most failing services. */
export function TrafficPanel() {
  const { t } = useTranslation('dashboard');
  const global = useTraffic(undefined, { range: '24h' });
  const services = useServicesTraffic('24h', 24);
  const g = global.data;
  const totals: Partial<Traffic['totals']> = g?.totals ?? {};
  const requests = totals.requests ?? 0;
  const list = services.data?.state === 'ok' ? (services.data.services ?? []) : [];
  const busiest = list.filter((s) => s.requests > 0).slice(0, TOP);
  const failing = [...list].filter((s) => s.errors5xx > 0).sort((a, b) => b.errors5xx - a.errors5xx || b.errorRatio - a.errorRatio).slice(0, TOP);
  return (
    <div className="dash-grid" data-testid="traffic-panel">
      <Card>
        <CardHeader title={t('traffic.title')} description={t('traffic.description')} />
        <div className="card-body stack" style={{ gap: 14 }}>
          {global.isPending ? (
            <LoadingRows rows={3} />
          ) : global.isError && !g ? (
            <TrafficError error={global.error} onRetry={() => global.refetch()} />
          ) : g && g.state !== 'ok' ? (
            <TrafficEmpty state={g.state} reason={g.reason} />
          ) : g ? (
            <>
              <div className="traffic-totals">
                <div>
                  <span className="small muted">{t('traffic.requests')}</span>
                  <span className="value">{formatNumber(requests, 0)}</span>
                </div>
                <div>
                  <span className="small muted">{t('traffic.errorRate')}</span>
                  <span className="value" style={{ color: requests && (totals.errors5xx ?? 0) / requests >= 0.05 ? 'var(--danger)' : undefined }}>
                    {requests ? formatPercent((totals.errors5xx ?? 0) / requests) : '—'}
                  </span>
                </div>
                <div>
                  <span className="small muted">{t('traffic.denied')}</span>
                  <span className="value">{formatNumber(totals.denied ?? 0, 0)}</span>
                </div>
              </div>
              <StatusChart traffic={g} height={150} />
            </>
          ) : null}
        </div>
      </Card>
      <Card>
        <CardHeader title={t('traffic.topTitle')} description={t('traffic.topDescription')} />
        <div className="card-body stack" style={{ gap: 16 }}>
          {services.isPending ? (
            <LoadingRows rows={3} />
          ) : services.isError ? (
            <TrafficError error={services.error} onRetry={() => services.refetch()} />
          ) : services.data && services.data.state !== 'ok' ? (
            <TrafficEmpty state={services.data.state} reason={services.data.reason} compact />
          ) : (
            <>
              <TopList title={t('traffic.busiest')} empty={t('traffic.busiestEmpty')} items={busiest} metric={(s) => t('traffic.requestsCount', { count: s.requests, n: formatCompact(s.requests) })} tone="primary" testId="top-busiest" />
              <TopList
                title={t('traffic.failing')}
                empty={t('traffic.failingEmpty')}
                items={failing}
                metric={(s) => t('traffic.errorsCount', { count: s.errors5xx, n: formatCompact(s.errors5xx), ratio: formatPercent(s.errorRatio) })}
                tone="danger"
                testId="top-failing"
              />
            </>
          )}
        </div>
      </Card>
    </div>
  );
}

function TopList({ title, empty, items, metric, tone, testId }: { title: string; empty: string; items: ServiceTraffic[]; metric: (s: ServiceTraffic) => string; tone: 'primary' | 'danger'; testId: string }) {
  const { t } = useTranslation('dashboard');
  return (
    <div data-testid={testId}>
      <h3 className="small muted" style={{ margin: '0 0 4px', fontWeight: 600 }}>
        {title}
      </h3>
      {items.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }}>
          {empty}
        </p>
      ) : (
        <ol className="top-services">
          {items.map((s) => (
            <li key={s.serviceId}>
              <Link to={`/services/${s.serviceId}/traffic`} className="truncate">
                {s.name || s.serviceId}
              </Link>
              <span className="small muted nowrap">{metric(s)}</span>
              <Sparkline values={s.points ?? []} width={80} height={24} tone={tone} label={t('traffic.sparkline', { name: s.name, metric: metric(s) })} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
