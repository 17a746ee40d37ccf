import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ChartNote, TrafficEmpty, TrafficError } from '@/components/charts/chart-state';
import { RangePicker, useTrafficWindow } from '@/components/charts/range-picker';
import { BytesChart, decisionSeries, DecisionsChart, HealthBar, LatencyChart, StatusChart } from '@/components/charts/traffic-charts';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadingRows } from '@/components/ui/states';
import { hasValues, isGone, useTraffic } from '@/lib/api/traffic';
import type { Traffic } from '@/lib/api-types';
import { formatBytes, formatDuration, formatNumber, formatPercent } from '@/lib/format';

/** A service's Traffic tab: its history over a picked range, zoomable, chart by chart. */
export function ServiceTrafficPage() {
  const { t } = useTranslation('services');
  const { id = '' } = useParams();
  const win = useTrafficWindow('24h');
  const traffic = useTraffic(id, win.window);
  // A service deleted while its tab was open answers 404: nothing of its history stays on screen.
  const gone = isGone(traffic.error);
  const tr = gone ? undefined : traffic.data;
  return (
    <div className="stack" style={{ gap: 20 }}>
      <Card>
        <CardHeader
          title={t('traffic.title')}
          description={tr ? <TrafficSource traffic={tr} /> : t('traffic.description')}
          actions={<RangePicker state={win} />}
        />
        <div className="card-body">
          {traffic.isPending ? (
            <LoadingRows rows={2} />
          ) : gone ? (
            <ChartNote icon="alert" title={t('traffic.gone')}>
              <Link to="/services">{t('traffic.goneLink')}</Link>
            </ChartNote>
          ) : traffic.isError && !tr ? (
            <TrafficError error={traffic.error} onRetry={() => traffic.refetch()} />
          ) : tr ? (
            tr.state === 'ok' ? (
              <Totals traffic={tr} />
            ) : (
              <TrafficEmpty state={tr.state} reason={tr.reason} />
            )
          ) : null}
        </div>
      </Card>
      {tr && tr.state === 'ok' ? <Charts traffic={tr} onZoom={win.zoom} /> : null}
      {/* The panel records its own decisions even where Traefik's metrics are missing. */}
      {tr && tr.state === 'no_metrics' && decisionSeries.some((s) => hasValues(tr.series[s.key])) ? (
        <ChartCard title={t('traffic.cards.decisions')} description={t('traffic.cards.decisionsText')}>
          <DecisionsChart traffic={tr} onZoom={win.zoom} />
        </ChartCard>
      ) : null}
    </div>
  );
}

function TrafficSource({ traffic: tr }: { traffic: Traffic }) {
  const { t } = useTranslation('services');
  const step = formatDuration(tr.stepSeconds);
  return <>{tr.source === 'prometheus' ? t('traffic.sourcePrometheus', { step }) : t('traffic.sourcePanel', { step })}</>;
}

function Totals({ traffic: tr }: { traffic: Traffic }) {
  const { t } = useTranslation('services');
  const total = tr.totals ?? {};
  const requests = total.requests ?? 0;
  const errors = total.errors5xx ?? 0;
  return (
    <div className="traffic-totals" data-testid="traffic-totals">
      <div>
        <span className="small muted">{t('traffic.totals.requests')}</span>
        <span className="value">{formatNumber(requests, 0)}</span>
      </div>
      <div>
        <span className="small muted">{t('traffic.totals.errors')}</span>
        <span className="value">{requests ? formatPercent(errors / requests) : '—'}</span>
        <span className="small muted">{t('traffic.totals.errorsCount', { count: errors })}</span>
      </div>
      <div>
        <span className="small muted">{t('traffic.totals.bytes')}</span>
        <span className="value">{t('traffic.totals.inOut', { in: formatBytes(total.bytesIn ?? 0), out: formatBytes(total.bytesOut ?? 0) })}</span>
      </div>
      <div>
        <span className="small muted">{t('traffic.totals.denied')}</span>
        <span className="value">{formatNumber(total.denied ?? 0, 0)}</span>
      </div>
    </div>
  );
}

function ChartCard({ title, description, children, wide }: { title: string; description?: string; children: ReactNode; wide?: boolean }) {
  return (
    <Card className={wide ? 'chart-wide' : undefined}>
      <CardHeader title={title} description={description} />
      <div className="card-body">
        {children}
      </div>
    </Card>
  );
}

function Charts({ traffic: tr, onZoom }: { traffic: Traffic; onZoom: (from: number, to: number) => void }) {
  const { t } = useTranslation('services');
  // One hover line across every chart of the tab.
  const sync = 'service-traffic';
  const step = formatDuration(tr.stepSeconds);
  return (
    <>
      <div className="chart-grid">
        <ChartCard title={t('traffic.cards.status')} description={t('traffic.cards.statusText', { step })}>
          <StatusChart traffic={tr} syncKey={sync} onZoom={onZoom} />
        </ChartCard>
        <ChartCard title={t('traffic.cards.latency')} description={t('traffic.cards.latencyText')}>
          <LatencyChart traffic={tr} syncKey={sync} onZoom={onZoom} />
        </ChartCard>
        <ChartCard title={t('traffic.cards.bytes')} description={t('traffic.cards.bytesText', { step })}>
          <BytesChart traffic={tr} syncKey={sync} onZoom={onZoom} />
        </ChartCard>
        <ChartCard title={t('traffic.cards.decisions')} description={t('traffic.cards.decisionsText')}>
          <DecisionsChart traffic={tr} syncKey={sync} onZoom={onZoom} />
        </ChartCard>
      </div>
      <ChartCard title={t('traffic.cards.health')} description={t('traffic.cards.healthText')}>
        <HealthBar traffic={tr} />
      </ChartCard>
    </>
  );
}
