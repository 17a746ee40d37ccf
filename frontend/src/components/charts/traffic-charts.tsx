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

type ChartName = 'requests' | 'latency' | 'bytes' | 'decisions';

/** What each chart draws: its series, how it draws them, and how a value reads. */
const charts: Record<ChartName, { picks: Pick[]; kind: 'bars' | 'lines'; fill?: boolean; format: (v: number) => string; known?: boolean; label: 'status' | Exclude<ChartName, 'requests'> }> = {
  requests: { picks: statusSeries, kind: 'bars', format: count, label: 'status' },
  latency: { picks: latencySeries, kind: 'lines', format: formatMs, known: true, label: 'latency' },
  bytes: { picks: bytesSeries, kind: 'lines', fill: true, format: formatBytes, label: 'bytes' },
  decisions: { picks: decisionSeries, kind: 'bars', format: count, label: 'decisions' },
};

/** One chart of the answer, or the note that says why it is empty. */
function SeriesChart({ name, traffic, height, syncKey, onZoom, compact }: Common & { name: ChartName; compact?: boolean }) {
  const { t } = useTranslation('components');
  const c = charts[name];
  const series = useSeries(traffic, c.picks);
  const drawn = c.known ? hasKnown : hasValues;
  if (!series.some((s) => drawn(s.values)))
    return (
      <ChartNote title={t(`charts.empty.${name}`)} compact={compact}>
        {t(`charts.empty.${name}Text`)}
      </ChartNote>
    );
  return (
    <TimeChart
      kind={c.kind}
      fill={c.fill}
      time={traffic.time}
      series={series}
      format={c.format}
      stepSeconds={traffic.stepSeconds}
      window={trafficWindow(traffic)}
      height={height}
      syncKey={syncKey}
      onZoom={onZoom}
      label={t(`charts.label.${c.label}`)}
    />
  );
}

/** Requests per step, stacked by status class. */
export const StatusChart = (p: Common) => <SeriesChart name="requests" {...p} />;

/** Latency percentiles from Traefik's histograms. */
export const LatencyChart = (p: Common) => <SeriesChart name="latency" {...p} />;

/** Bytes received from clients and sent back, per step. */
export const BytesChart = (p: Common) => <SeriesChart name="bytes" {...p} />;

/** Forward-auth decisions per step, stacked. */
export const DecisionsChart = (p: Common & { compact?: boolean }) => <SeriesChart name="decisions" {...p} />;

/** Backend health over the window, as a status page shows it. */
export function HealthBar({ traffic }: { traffic: Traffic }) {
  const { t } = useTranslation('components');
  const up = traffic.series.up ?? [];
  if (!hasKnown(up)) return <ChartNote title={t('charts.empty.health')}>{t('charts.empty.healthText')}</ChartNote>;
  return <UptimeBar time={traffic.time} up={up} stepSeconds={traffic.stepSeconds} label={t('charts.label.health')} />;
}
