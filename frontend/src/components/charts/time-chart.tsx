import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { Button } from '@/components/ui/button';
import type { SeriesValues } from '@/lib/api/traffic';
import { formatAxisTime, formatInstant } from '@/lib/format';
import { toneColor, useChartColors, withAlpha, type ChartColors, type Tone } from './chart-colors';
import { UPlotChart, type PlotOptions } from './uplot-chart';

export type ChartSeries = { key: string; label: string; tone: Tone; values: SeriesValues; dash?: boolean };

export type TimeChartProps = {
  /** The start of each step, unix seconds. */
  time: number[];
  series: ChartSeries[];
  /** bars: one bar per step, stacked in the given order (bottom first); lines: one line each. */
  kind: 'bars' | 'lines';
  /** Lines only: a light fill under each line. */
  fill?: boolean;
  /** How a value reads on the axis and in the legend. */
  format: (v: number) => string;
  stepSeconds: number;
  /** The whole window shown (unix seconds), also where its ends have no points. */
  window?: readonly [number, number];
  height?: number;
  /** Charts with the same key share the cursor (one hover across a page's charts). */
  syncKey?: string;
  /** A drag over the chart selects a part of the time axis: the page asks for it (finer steps); without it the chart zooms in on its own. */
  onZoom?: (from: number, to: number) => void;
  /** What the chart shows, for screen readers. */
  label: string;
};

/** Sums of the series from the bottom up: what each stacked bar reaches, null where no series has a value. */
export function stackValues(series: SeriesValues[]): SeriesValues[] {
  const n = Math.max(0, ...series.map((s) => s.length));
  const acc: SeriesValues = new Array(n).fill(null);
  return series.map((s) => {
    for (let i = 0; i < n; i++) {
      const v = s[i];
      if (v !== null && v !== undefined) acc[i] = (acc[i] ?? 0) + v;
    }
    return [...acc];
  });
}

/** The indices of the values with no value on either side (a line cannot show them). */
export function isolated(values: SeriesValues): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (values[i] === null || values[i] === undefined) continue;
    const before = i > 0 ? values[i - 1] : null;
    const after = i < values.length - 1 ? values[i + 1] : null;
    if ((before === null || before === undefined) && (after === null || after === undefined)) out.push(i);
  }
  return out;
}

function axisSize(values: string[] | null): number {
  const longest = Math.max(0, ...(values ?? []).map((v) => v.length));
  return Math.max(36, Math.min(88, longest * 7 + 16));
}

function buildOptions(p: {
  colors: ChartColors;
  series: ChartSeries[];
  kind: 'bars' | 'lines';
  fill: boolean;
  format: (v: number) => string;
  syncKey?: string;
  onCursor: (idx: number | null) => void;
  onSelect: (from: number, to: number) => void;
  onReset: () => void;
}): PlotOptions {
  const { colors: c } = p;
  const axis = { stroke: c.muted, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 }, font: '11px system-ui, sans-serif' };
  // Stacked bars are drawn top of the stack first, each from zero, so every lower series paints over the one above it.
  const drawn = p.kind === 'bars' ? [...p.series].reverse() : p.series;
  const bars = uPlot.paths.bars?.({ size: [0.86, 48], align: 1 });
  return {
    title: undefined,
    legend: { show: false },
    // Room on the right for the last time label, which uPlot centres on its tick.
    padding: [8, 24, 0, 0],
    cursor: {
      drag: { x: true, y: false, setScale: false, dist: 6 },
      sync: p.syncKey ? { key: p.syncKey, setSeries: false } : undefined,
      points: { size: 6 },
      // uPlot's double-click fits the time axis to the points; here it goes back to the whole window.
      bind: {
        dblclick: () => () => {
          p.onReset();
          return null;
        },
      },
    },
    select: { show: true, left: 0, top: 0, width: 0, height: 0 },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] } },
    axes: [
      { ...axis, space: 64, values: (_u, splits, _axis, _space, incr) => splits.map((s) => formatAxisTime(s, incr)) },
      { ...axis, space: 28, size: (_u, values) => axisSize(values), values: (_u, splits) => splits.map((s) => p.format(s)) },
    ],
    series: [
      {},
      ...drawn.map((s): uPlot.Series => {
        const color = toneColor(c, s.tone);
        return p.kind === 'bars'
          ? { label: s.label, stroke: color, fill: color, width: 0, paths: bars, points: { show: false } }
          : {
              label: s.label,
              stroke: color,
              width: 1.75,
              dash: s.dash ? [4, 3] : undefined,
              fill: p.fill ? withAlpha(color, 0.12) : undefined,
              spanGaps: false,
              // A value with no neighbour draws no line: it gets a dot instead.
              points: { show: true, size: 5, fill: color, filter: (u, i) => isolated(u.data[i] as SeriesValues) },
            };
      }),
    ],
    hooks: {
      setCursor: [(u) => p.onCursor(u.cursor.idx ?? null)],
      setSelect: [
        (u) => {
          if (u.select.width > 4) p.onSelect(u.posToVal(u.select.left, 'x'), u.posToVal(u.select.left + u.select.width, 'x'));
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        },
      ],
    },
  };
}

/** A time series chart with a hover legend (values and time) and zoom by dragging across it. */
export function TimeChart({ time, series, kind, fill = false, format, stepSeconds, window, height = 180, syncKey, onZoom, label }: TimeChartProps) {
  const { t } = useTranslation('components');
  const colors = useChartColors();
  const [idx, setIdx] = useState<number | null>(null);
  const [zoom, setZoom] = useState<readonly [number, number] | null>(null);
  // uPlot's hooks are set once per plot; they reach the latest callbacks through refs.
  const handlers = useRef({ format, onZoom });
  handlers.current = { format, onZoom };

  const keys = series.map((s) => `${s.key}:${s.tone}:${s.label}:${s.dash ? 1 : 0}`).join('|');
  const options = useMemo(
    () =>
      buildOptions({
        colors,
        series,
        kind,
        fill,
        format: (v) => handlers.current.format(v),
        syncKey,
        onCursor: setIdx,
        onSelect: (from, to) => {
          if (handlers.current.onZoom) handlers.current.onZoom(Math.floor(from), Math.ceil(to));
          else setZoom([from, to]);
        },
        onReset: () => setZoom(null),
      }),
    // The series' names and colours shape the plot; their values arrive through `data`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [colors, keys, kind, fill, syncKey],
  );

  const data = useMemo((): uPlot.AlignedData => {
    const values = series.map((s) => s.values);
    const ys = kind === 'bars' ? stackValues(values).reverse() : values;
    return [time, ...ys] as uPlot.AlignedData;
  }, [time, series, kind]);

  const full = window ?? (time.length ? ([time[0]!, time[time.length - 1]! + stepSeconds] as const) : undefined);
  const hovered = idx !== null && idx < time.length ? idx : null;
  const total = kind === 'bars' && hovered !== null ? series.reduce((sum, s) => sum + (s.values[hovered] ?? 0), 0) : null;

  return (
    <div className="time-chart">
      <div className="chart-legend">
        <span className="chart-legend-time">{hovered !== null ? formatInstant(time[hovered]!) : null}</span>
        {series.map((s) => {
          const v = hovered !== null ? s.values[hovered] : undefined;
          return (
            <span key={s.key} className="chart-legend-item" data-series={s.key}>
              <span className={`chart-swatch${s.dash ? ' dashed' : ''}`} style={{ background: toneColor(colors, s.tone) }} aria-hidden="true" />
              {s.label}
              {hovered !== null ? <strong>{v === null || v === undefined ? '—' : format(v)}</strong> : null}
            </span>
          );
        })}
        {total !== null && series.length > 1 ? (
          <span className="chart-legend-item">
            {t('charts.total')} <strong>{format(total)}</strong>
          </span>
        ) : null}
        {zoom ? (
          <Button size="sm" variant="ghost" icon="refresh" className="chart-reset" onClick={() => setZoom(null)}>
            {t('charts.resetZoom')}
          </Button>
        ) : null}
      </div>
      <div role="img" aria-label={label} title={t('charts.dragToZoom')}>
        <UPlotChart options={options} data={data} height={height} xRange={zoom ?? full} />
      </div>
    </div>
  );
}
