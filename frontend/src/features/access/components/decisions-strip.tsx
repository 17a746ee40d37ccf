import { useTranslation } from 'react-i18next';
import { TrafficEmpty, TrafficError } from '@/components/charts/chart-state';
import { RangePicker, useTrafficWindow } from '@/components/charts/range-picker';
import { decisionSeries, DecisionsChart } from '@/components/charts/traffic-charts';
import { hasValues, useTraffic } from '@/lib/api/traffic';

/**
 * Forward-auth decisions over time above the access log: every service's, or one service's
 * (a service page, or the log filtered to one). The panel records them itself, so they show
 * even where Traefik's metrics are not configured.
 */
export function DecisionsStrip({ serviceId }: { serviceId?: string }) {
  const { t } = useTranslation('access');
  const win = useTrafficWindow('24h');
  const traffic = useTraffic(serviceId, win.window);
  const tr = traffic.data;
  const any = !!tr && decisionSeries.some((s) => hasValues(tr.series[s.key]));
  return (
    <div className="decision-strip" data-testid="decisions-strip">
      <div className="row-between" style={{ marginBottom: 6, flexWrap: 'wrap', gap: 8 }}>
        <h3 className="small muted" style={{ margin: 0, fontWeight: 600 }}>
          {t('strip.title')}
        </h3>
        <RangePicker state={win} />
      </div>
      {traffic.isPending ? (
        <div className="skeleton" style={{ height: 110 }} aria-busy="true" />
      ) : traffic.isError && !tr ? (
        <TrafficError error={traffic.error} onRetry={() => traffic.refetch()} />
      ) : tr && (any || tr.state === 'ok') ? (
        <DecisionsChart traffic={tr} height={110} onZoom={win.zoom} compact />
      ) : tr ? (
        <TrafficEmpty state={tr.state} reason={tr.reason} compact />
      ) : null}
    </div>
  );
}
