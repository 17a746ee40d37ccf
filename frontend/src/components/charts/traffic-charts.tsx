// The charts of traffic over time, each from one answer of the history API and each with
// the note that says why it is empty. The dashboard, a service's Traffic tab and the access
// log draw them.
import { useTranslation } from 'react-i18next';
import { hasKnown, hasValues, type TrafficSeriesName } from '@/lib/api/traffic';
import type { Traffic } from '@/lib/api-types';
import { formatBytes, formatCompact, formatMs } from '@/lib/format';
import type { Tone } from './chart-colors';
import { ChartNote } from './chart-state';
import { TimeChart, type ChartSeries } from './time-chart';
import { UptimeBar } from './uptime-bar';

type Common = {
  traffic: Traffic;
  height?: number;
  syncKey?: string;
  onZoom?: (from: number, to: number) => void;
};

/** The window the answer covers, unix seconds. */
export function trafficWindow(tr: Traffic): readonly [number, number] | undefined {
  const from = Date.parse(tr.from) / 1000;
  const to = Date.parse(tr.to) / 1000;
  return Number.isFinite(from) && Number.isFinite(to) && to > from ? [from, to] : undefined;
}

type Pick = { key: TrafficSeriesName; tone: Tone; dash?: boolean };

export const statusSeries: Pick[] = [
  { key: 'requests2xx', tone: 'success' },
  { key: 'requests3xx', tone: 'info' },
  { key: 'requests4xx', tone: 'warning' },
  { key: 'requests5xx', tone: 'danger' },
];
export const latencySeries: Pick[] = [
  { key: 'latencyP50Ms', tone: 'success' },
  { key: 'latencyP95Ms', tone: 'warning' },
  { key: 'latencyP99Ms', tone: 'danger', dash: true },
];
export const bytesSeries: Pick[] = [
  { key: 'bytesIn', tone: 'info' },
  { key: 'bytesOut', tone: 'primary' },
];
export const decisionSeries: Pick[] = [
  { key: 'allowed', tone: 'success' },
  { key: 'signedIn', tone: 'info' },
  { key: 'challenged', tone: 'warning' },
  { key: 'denied', tone: 'danger' },
  { key: 'rateLimited', tone: 'primary' },
];

function useSeries(tr: Traffic, picks: Pick[]): ChartSeries[] {
  const { t } = useTranslation('components');
  return picks.map((p) => ({ key: p.key, tone: p.tone, dash: p.dash, label: t(`charts.series.${p.key}`), values: tr.series[p.key] ?? [] }));
}

const count = (v: number) => formatCompact(v);

/** Requests per step, stacked by status class. */
export function StatusChart({ traffic, height, syncKey, onZoom }: Common) {
  const { t } = useTranslation('components');
  const series = useSeries(traffic, statusSeries);
  if (!series.some((s) => hasValues(s.values))) return <ChartNote title={t('charts.empty.requests')}>{t('charts.empty.requestsText')}</ChartNote>;
  return (
    <TimeChart
      kind="bars"
      time={traffic.time}
      series={series}
      format={count}
      stepSeconds={traffic.stepSeconds}
      window={trafficWindow(traffic)}
      height={height}
      syncKey={syncKey}
      onZoom={onZoom}
      label={t('charts.label.status')}
    />
  );
}

/** Latency percentiles from Traefik's histograms. */
export function LatencyChart({ traffic, height, syncKey, onZoom }: Common) {
  const { t } = useTranslation('components');
  const series = useSeries(traffic, latencySeries);
  if (!series.some((s) => hasKnown(s.values))) return <ChartNote title={t('charts.empty.latency')}>{t('charts.empty.latencyText')}</ChartNote>;
  return (
    <TimeChart
      kind="lines"
      time={traffic.time}
      series={series}
      format={formatMs}
      stepSeconds={traffic.stepSeconds}
      window={trafficWindow(traffic)}
      height={height}
      syncKey={syncKey}
      onZoom={onZoom}
      label={t('charts.label.latency')}
    />
  );
}

/** Bytes received from clients and sent back, per step. */
export function BytesChart({ traffic, height, syncKey, onZoom }: Common) {
  const { t } = useTranslation('components');
  const series = useSeries(traffic, bytesSeries);
  if (!series.some((s) => hasValues(s.values))) return <ChartNote title={t('charts.empty.bytes')}>{t('charts.empty.bytesText')}</ChartNote>;
  return (
    <TimeChart
      kind="lines"
      fill
      time={traffic.time}
      series={series}
      format={formatBytes}
      stepSeconds={traffic.stepSeconds}
      window={trafficWindow(traffic)}
      height={height}
      syncKey={syncKey}
      onZoom={onZoom}
      label={t('charts.label.bytes')}
    />
  );
}

/** Forward-auth decisions per step, stacked. */
export function DecisionsChart({ traffic, height, syncKey, onZoom, compact }: Common & { compact?: boolean }) {
  const { t } = useTranslation('components');
  const series = useSeries(traffic, decisionSeries);
  if (!series.some((s) => hasValues(s.values)))
    return (
      <ChartNote title={t('charts.empty.decisions')} compact={compact}>
        {t('charts.empty.decisionsText')}
      </ChartNote>
    );
  return (
    <TimeChart
      kind="bars"
      time={traffic.time}
      series={series}
      format={count}
      stepSeconds={traffic.stepSeconds}
      window={trafficWindow(traffic)}
      height={height}
      syncKey={syncKey}
      onZoom={onZoom}
      label={t('charts.label.decisions')}
    />
  );
}

/** Backend health over the window, as a status page shows it. */
export function HealthBar({ traffic }: { traffic: Traffic }) {
  const { t } = useTranslation('components');
  const up = traffic.series.up ?? [];
  if (!hasKnown(up)) return <ChartNote title={t('charts.empty.health')}>{t('charts.empty.healthText')}</ChartNote>;
  return <UptimeBar time={traffic.time} up={up} stepSeconds={traffic.stepSeconds} label={t('charts.label.health')} />;
}
