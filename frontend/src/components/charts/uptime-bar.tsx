import { useTranslation } from 'react-i18next';
import type { SeriesValues } from '@/lib/api/traffic';
import { formatInstant, formatPercent } from '@/lib/format';

export type UptimeCell = { from: number; to: number; value: number | null };

/**
 * Groups the steps into at most `max` cells, each as bad as the worst step in it (a status
 * page shows an outage, not an average that hides it); a cell without any check is unknown.
 */
export function uptimeCells(time: number[], up: SeriesValues, stepSeconds: number, max: number): UptimeCell[] {
  const n = time.length;
  if (n === 0) return [];
  const per = Math.max(1, Math.ceil(n / max));
  const cells: UptimeCell[] = [];
  for (let i = 0; i < n; i += per) {
    const end = Math.min(n, i + per);
    let value: number | null = null;
    for (let j = i; j < end; j++) {
      const v = up[j];
      if (v !== null && v !== undefined) value = value === null ? v : Math.min(value, v);
    }
    cells.push({ from: time[i]!, to: time[end - 1]! + stepSeconds, value });
  }
  return cells;
}

/** The share of checks up over the known steps; null when nothing was checked. */
export function uptimeShare(up: SeriesValues): number | null {
  const known = up.filter((v): v is number => v !== null && v !== undefined);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
}

function cellState(v: number | null): 'up' | 'down' | 'partial' | 'unknown' {
  if (v === null) return 'unknown';
  if (v >= 0.999) return 'up';
  if (v <= 0) return 'down';
  return 'partial';
}

/** Backend health like a status page: one cell per period, green up, red down, amber partly, grey unknown. */
export function UptimeBar({ time, up, stepSeconds, max = 90, label }: { time: number[]; up: SeriesValues; stepSeconds: number; max?: number; label: string }) {
  const { t } = useTranslation('components');
  const cells = uptimeCells(time, up, stepSeconds, max);
  const share = uptimeShare(up);
  const summary = share === null ? t('charts.uptime.unknown') : t('charts.uptime.share', { share: formatPercent(share, 2) });
  return (
    <div className="uptime">
      <div className="uptime-bar" role="img" aria-label={`${label}: ${summary}`}>
        {cells.map((c) => {
          const state = cellState(c.value);
          const what = c.value === null ? t('charts.uptime.noChecks') : t(`charts.uptime.${state === 'up' ? 'up' : state === 'down' ? 'down' : 'partial'}`, { share: formatPercent(c.value) });
          return <span key={c.from} className={`uptime-cell ${state}`} data-state={state} title={`${formatInstant(c.from)}: ${what}`} />;
        })}
      </div>
      <div className="uptime-foot small muted">
        <span>{cells.length ? formatInstant(cells[0]!.from) : null}</span>
        <strong>{summary}</strong>
        <span>{cells.length ? formatInstant(cells[cells.length - 1]!.to) : null}</span>
      </div>
      <div className="uptime-key small muted" aria-hidden="true">
        <span><span className="uptime-cell up" /> {t('charts.uptime.keyUp')}</span>
        <span><span className="uptime-cell partial" /> {t('charts.uptime.keyPartial')}</span>
        <span><span className="uptime-cell down" /> {t('charts.uptime.keyDown')}</span>
        <span><span className="uptime-cell unknown" /> {t('charts.uptime.keyUnknown')}</span>
      </div>
    </div>
  );
}
