import { useState } from 'react';
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
import { formatDateTime } from '@/lib/format';
import { useDebouncedParam, useUrlParams } from '@/lib/url-state';
import { LOG_CAP, LOG_POLL_MS, useAccessLog, type LogFilters } from '../api/access-log';
import { LogDecisionBadge, logDecisions } from './decision';

/** Live access log with filters kept in the URL; `serviceId` limits it to one service. */
export function AccessLogTable({ serviceId, title = 'Access log' }: { serviceId?: string; title?: string }) {
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
    { id: 'time', header: 'Time', className: 'small nowrap', cellProps: (r) => ({ title: formatDateTime(r.time) }), cell: (r) => formatTime(r.time) },
    {
      id: 'service',
      header: 'Service',
      hidden: !!serviceId,
      cell: (r) => <Link to={`/services/${r.serviceId}/access`}>{r.serviceName || r.serviceId}</Link>,
    },
    {
      id: 'request',
      header: 'Request',
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
    { id: 'client', header: 'Client', className: 'mono small', cell: (r) => r.clientAddress || '—' },
    { id: 'decision', header: 'Decision', cell: (r) => <LogDecisionBadge decision={r.decision} by={r.by} /> },
    { id: 'by', header: 'By', className: 'small log-by', cell: (r) => r.by },
    { id: 'identity', header: 'Identity', className: 'small log-identity', cell: (r) => r.identity || <span className="faint">—</span> },
  ];

  return (
    <Card>
      <CardHeader
        title={title}
        description={`Forward-auth decisions, newest first. Query strings are never logged. The panel keeps the last ${log.data?.capacity ?? 1000} entries; this view shows up to ${LOG_CAP}.`}
        actions={
          <>
            <span className="small muted row" style={{ gap: 6 }} role="status">
              <span className={`live-dot${paused ? '' : ' on'}`} aria-hidden="true" />
              {paused ? 'Paused' : `Live · every ${LOG_POLL_MS / 1000} s`}
            </span>
            <Button size="sm" icon={paused ? 'play' : 'pause'} aria-pressed={paused} onClick={() => setPaused((p) => !p)}>
              {paused ? 'Resume' : 'Pause'}
            </Button>
          </>
        }
      />
      <FilterPanel label={`${title} filters`} active={[filters.serviceId, filters.decision, filters.address, filters.identity].filter(Boolean).length} className="card-body log-filters">
        {!serviceId ? <ServiceFilter value={filters.serviceId ?? ''} onChange={(v) => set('service', v)} /> : null}
        <Field label="Decision">
          <select className="select" value={filters.decision} onChange={(e) => set('decision', e.target.value)}>
            <option value="">Any decision</option>
            {Object.entries(logDecisions).map(([k, v]) => (
              <option key={k} value={k}>
                {v.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Client address">
          <input className="input mono" value={address} onChange={(e) => setAddress(e.target.value)} placeholder="203.0.113.7" autoCapitalize="off" spellCheck={false} />
        </Field>
        <Field label="Identity">
          <input className="input" value={identity} onChange={(e) => setIdentity(e.target.value)} placeholder="alice or token:phone" autoCapitalize="off" spellCheck={false} />
        </Field>
      </FilterPanel>
      {log.isError && log.data ? (
        <div className="card-body" style={{ paddingTop: 0 }}>
          <Alert tone="warning" title="Live updates failed">
            {errorMessage(log.error)} Retrying every {LOG_POLL_MS / 1000} s.
          </Alert>
        </div>
      ) : null}
      {log.isPending ? (
        <LoadingRows rows={4} />
      ) : log.isError && !log.data ? (
        <div className="card-body">
          <ErrorState error={log.error} onRetry={() => log.refetch()} title="Could not load the access log" />
        </div>
      ) : (
        <DataTable
          data={rows}
          rowKey={(r) => String(r.seq)}
          columns={columns}
          caption={`${title}, ${rows.length} entries, newest first`}
          className="log-table"
          empty={
            <EmptyState icon="activity" title={filtered ? 'No matching requests' : 'No requests yet'}>
              {filtered ? 'Nothing logged matches these filters.' : 'Requests appear here as Traefik asks the panel about them.'}
            </EmptyState>
          }
        />
      )}
    </Card>
  );
}

/** Only the global log offers a service filter (and loads the service list for it). */
function ServiceFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const services = useServices();
  return (
    <Field label="Service">
      <select className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All services</option>
        {(services.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : formatDateTime(iso);
}
