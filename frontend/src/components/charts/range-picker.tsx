import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { trafficRanges, type TrafficRange, type TrafficWindow } from '@/lib/api/traffic';
import { formatInstant } from '@/lib/format';
import { Button } from '../ui/button';

/** The shortest window a zoom asks for: a few of the finest steps (one minute). */
export const minZoomSeconds = 5 * 60;

// RFC 3339 in whole seconds, as the API reads it.
const iso = (seconds: number) => new Date(Math.round(seconds) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The history's window kept in the URL (range, and from/to after a zoom), so a reload or a
 * shared link shows the same charts. Picking a range drops the zoom.
 */
export function useTrafficWindow(fallback: TrafficRange = '24h') {
  const [params, setParams] = useSearchParams();
  const raw = params.get('range');
  const range = trafficRanges.includes(raw as TrafficRange) ? (raw as TrafficRange) : fallback;
  const from = params.get('from') ?? undefined;
  const to = params.get('to') ?? undefined;
  const zoomed = !!(from && to && Date.parse(to) > Date.parse(from));
  const window: TrafficWindow = zoomed ? { range, from, to } : { range };

  const update = useCallback(
    (change: (p: URLSearchParams) => void) =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setRange = useCallback(
    (r: TrafficRange) =>
      update((p) => {
        if (r === fallback) p.delete('range');
        else p.set('range', r);
        p.delete('from');
        p.delete('to');
      }),
    [update, fallback],
  );
  const zoom = useCallback(
    (fromSec: number, toSec: number) =>
      update((p) => {
        let a = fromSec;
        let b = toSec;
        if (b - a < minZoomSeconds) {
          const mid = (a + b) / 2;
          a = Math.floor(mid - minZoomSeconds / 2);
          b = a + minZoomSeconds;
        }
        p.set('from', iso(a));
        p.set('to', iso(b));
      }),
    [update],
  );
  const resetZoom = useCallback(
    () =>
      update((p) => {
        p.delete('from');
        p.delete('to');
      }),
    [update],
  );
  return { window, range, zoomed, setRange, zoom, resetZoom };
}

/** 1 h, 24 h, 7 d, 30 d, and after a zoom the zoomed span with a way back. */
export function RangePicker({ state }: { state: ReturnType<typeof useTrafficWindow> }) {
  const { t } = useTranslation('components');
  const { window: w, range, zoomed, setRange, resetZoom } = state;
  return (
    <div className="range-picker">
      <div className="segmented" role="group" aria-label={t('charts.range.label')}>
        {trafficRanges.map((r) => (
          <button key={r} type="button" aria-pressed={!zoomed && range === r} onClick={() => setRange(r)} title={t(`charts.range.title.${r}`)}>
            {t(`charts.range.short.${r}`)}
          </button>
        ))}
      </div>
      {zoomed && w.from && w.to ? (
        <>
          <span className="small muted" data-testid="zoomed">
            {t('charts.range.zoomed', { from: formatInstant(Date.parse(w.from) / 1000), to: formatInstant(Date.parse(w.to) / 1000) })}
          </span>
          <Button size="sm" variant="ghost" icon="refresh" onClick={resetZoom}>
            {t('charts.resetZoom')}
          </Button>
        </>
      ) : null}
    </div>
  );
}
