import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { FilterPanel } from '@/components/ui/filter-panel';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import type { AccessLogEntry } from '@/lib/api-types';
import { useServices } from '@/lib/api/resources';
import { formatDateTime, formatTime } from '@/lib/format';
import { useDebouncedParam, useUrlParams } from '@/lib/url-state';
import { LOG_CAP, LOG_POLL_MS, useAccessLog, type LogFilters } from '../api/access-log';
import { DecisionsStrip } from './decisions-strip';
import { LogDecisionBadge, logDecisions } from './decision';

/** Live access log with filters kept in the URL; `serviceId` limits it to one service. */
export function AccessLogTable({ serviceId, title: titleProp }: { serviceId?: string; title?: string }) {
  const { t } = useTranslation('access');
  const title = titleProp ?? t('log.title');
  const [params, set] = useUrlParams();
  const [paused, setPaused] = useState(false);
  const filters: LogFilters = {
    decision: params.get('decision') ?? '',
    address: params.get('address') ?? '',
    identity: params.get('identity') ?? '',
    serviceId: serviceId ? undefined : (params.get('service') ?? ''),
  };
  const [address, setAddress] = useDebouncedParam('address', params, set);
  const [identity, setIdentity] = useDebouncedParam('identity', params, set);
  const log = useAccessLog(serviceId, filters, paused);
  const rows = log.data?.rows ?? [];
  const filtered = !!(filters.decision || filters.address || filters.identity || filters.serviceId);
  const columns: Column<AccessLogEntry>[] = [
    { id: 'time', header: t('log.columns.time'), className: 'small nowrap', cellProps: (r) => ({ title: formatDateTime(r.time) }), cell: (r) => logTime(r.time) },
    {
      id: 'service',
      header: t('log.columns.service'),
      hidden: !!serviceId,
      cell: (r) => <Link to={`/services/${r.serviceId}/access`}>{r.serviceName || r.serviceId}</Link>,
    },
    {
      id: 'request',
      header: t('log.columns.request'),
      className: 'log-request',
      cellProps: (r) => ({ title: `${r.method} ${r.host}${r.path}` }),
      cell: (r) => (
        <>
          <span className="mono small">
            <strong>{r.method}</strong> {r.path}
          </span>
          {!serviceId ? <div className="small muted mono">{r.host}</div> : null}
        </>
      ),
    },
    { id: 'client', header: t('log.columns.client'), className: 'mono small', cell: (r) => r.clientAddress || '—' },
    {
      id: 'decision',
      header: t('log.columns.decision'),
      cell: (r) => <LogDecisionBadge decision={r.decision} by={r.by} reason={r.reason} />,
    },
    {
      id: 'by',
      header: t('log.columns.by'),
      className: 'small log-by',
      cell: (r) => (
        <>
          {r.by}
          {r.reason ? <div className="muted">{t(`log.reasons.${r.reason}`)}</div> : null}
        </>
      ),
    },
    { id: 'identity', header: t('log.columns.identity'), className: 'small log-identity', cell: (r) => r.identity || <span className="faint">—</span> },
  ];

  return (
    <Card>
      <CardHeader
        title={title}
        description={t('log.description', { capacity: log.data?.capacity ?? 1000, cap: LOG_CAP })}
        actions={
          <>
            <span className="small muted row" style={{ gap: 6 }} role="status">
              <span className={`live-dot${paused ? '' : ' on'}`} aria-hidden="true" />
              {paused ? t('log.paused') : t('log.live', { seconds: LOG_POLL_MS / 1000 })}
            </span>
            <Button size="sm" icon={paused ? 'play' : 'pause'} aria-pressed={paused} onClick={() => setPaused((p) => !p)}>
              {paused ? t('log.resume') : t('log.pause')}
            </Button>
          </>
        }
      />
      <DecisionsStrip serviceId={serviceId ?? (filters.serviceId || undefined)} />
      <FilterPanel label={t('log.filters', { title })} active={[filters.serviceId, filters.decision, filters.address, filters.identity].filter(Boolean).length} className="card-body log-filters">
        {!serviceId ? <ServiceFilter value={filters.serviceId ?? ''} onChange={(v) => set('service', v)} /> : null}
        <Field label={t('log.columns.decision')}>
          <select className="select" value={filters.decision} onChange={(e) => set('decision', e.target.value)}>
            <option value="">{t('log.anyDecision')}</option>
            {(Object.keys(logDecisions) as (keyof typeof logDecisions)[]).map((k) => (
              <option key={k} value={k}>
                {t(`logDecision.${k}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('log.clientAddress')}>
          <input className="input mono" value={address} onChange={(e) => setAddress(e.target.value)} placeholder="203.0.113.7" autoCapitalize="off" spellCheck={false} />
        </Field>
        <Field label={t('log.columns.identity')}>
          <input className="input" value={identity} onChange={(e) => setIdentity(e.target.value)} placeholder={t('log.identityPlaceholder')} autoCapitalize="off" spellCheck={false} />
        </Field>
      </FilterPanel>
      {log.isError && log.data ? (
        <div className="card-body" style={{ paddingTop: 0 }}>
          <Alert tone="warning" title={t('log.liveFailed')}>
            {t('log.retrying', { message: errorMessage(log.error), seconds: LOG_POLL_MS / 1000 })}
          </Alert>
        </div>
      ) : null}
      {log.isPending ? (
        <LoadingRows rows={4} />
      ) : log.isError && !log.data ? (
        <div className="card-body">
          <ErrorState error={log.error} onRetry={() => log.refetch()} title={t('log.loadFailed')} />
        </div>
      ) : (
        <DataTable
          data={rows}
          rowKey={(r) => String(r.seq)}
          columns={columns}
          caption={t('log.caption', { title, count: rows.length })}
          className="log-table"
          empty={
            <EmptyState icon="activity" title={filtered ? t('log.noMatch') : t('log.none')}>
              {filtered ? t('log.noMatchText') : t('log.noneText')}
            </EmptyState>
          }
        />
      )}
    </Card>
  );
}

/** Only the global log offers a service filter (and loads the service list for it). */
function ServiceFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation('access');
  const services = useServices();
  return (
    <Field label={t('log.columns.service')}>
      <select className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('log.allServices')}</option>
        {(services.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

function logTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const today = new Date().toDateString() === d.toDateString();
  return today ? formatTime(d) : formatDateTime(iso);
}
