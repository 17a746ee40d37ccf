import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { FilterPanel } from '@/components/ui/filter-panel';
import { Icon } from '@/components/ui/icons';
import { ConfirmDialog } from '@/components/ui/modal';
import { Sparkline } from '@/components/ui/sparkline';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { Switch } from '@/components/ui/switch';
import { useCanWrite } from '@/lib/api/system';
import type { Service, ServiceHealth, ServiceMetrics } from '@/lib/api-types';
import { useProxyHealth, useProxyMetrics, useProxyStatus, useServices } from '@/lib/api/resources';
import { useUrlParam } from '@/lib/url-state';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useNow } from '@/lib/use-now';
import { useDeleteService, useToggleService } from '../api/services';
import { ProtectionIcons } from './protection-icons';
import { ServiceStatus } from './service-status';

const statusFilters = ['all', 'enabled', 'disabled', 'protected', 'public'] as const;
type StatusFilter = (typeof statusFilters)[number];

function matches(s: Service, q: string): boolean {
  if (!q) return true;
  const hay = [s.name, ...(s.fqdns ?? []), ...s.targets.map((t) => `${t.host}:${t.port}`)].join(' ').toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .every((w) => hay.includes(w));
}

function isProtected(s: Service) {
  return !!(s.protection?.basicAuth || s.protection?.sso || s.protection?.sharedLinks || s.protection?.tokens);
}

export function ServicesPage() {
  const services = useServices();
  const [probe, setProbe] = useState(false);
  const health = useProxyHealth(probe);
  const metrics = useProxyMetrics();
  const toggle = useToggleService();
  const del = useDeleteService();
  const canWrite = useCanWrite();
  const now = useNow(15_000);
  const [q, setQ] = useUrlParam('q');
  const [status, setStatus] = useUrlParam<StatusFilter>('status', 'all', statusFilters);
  const [deleting, setDeleting] = useState<Service | null>(null);

  const proxyStatus = useProxyStatus();
  const badgeById = useMemo(() => new Map((proxyStatus.data?.services ?? []).map((b) => [b.serviceId, b])), [proxyStatus.data]);
  const healthById = useMemo(() => new Map((health.data?.items ?? []).map((h) => [h.serviceId, h])), [health.data]);
  const metricsById = useMemo(() => new Map((metrics.data?.items ?? []).map((m) => [m.serviceId, m])), [metrics.data]);

  const list = (services.data ?? []).filter(
    (s) =>
      matches(s, q.trim()) &&
      (status === 'all' ||
        (status === 'enabled' && s.enabled) ||
        (status === 'disabled' && !s.enabled) ||
        (status === 'protected' && isProtected(s)) ||
        (status === 'public' && !isProtected(s))),
  );

  const onToggle = (s: Service, enabled: boolean) =>
    toggle.mutate(
      { service: s, enabled },
      { onSuccess: () => toast.success(`${s.name} ${enabled ? 'enabled' : 'disabled'}`) },
    );

  const total = services.data?.length ?? 0;
  const columns: Column<Service>[] = [
    {
      // Its own column, first: the switch never sits beside Delete.
      id: 'enabled',
      header: 'Enabled',
      cell: (s) => (
        <span style={{ display: 'inline-flex', verticalAlign: 'middle' }} title={s.enabled ? 'Enabled' : 'Disabled'}>
          <Switch
            checked={s.enabled}
            disabled={!canWrite || (toggle.isPending && toggle.variables?.service.id === s.id)}
            onChange={(e) => onToggle(s, e.target.checked)}
            label={`${s.enabled ? 'Disable' : 'Enable'} ${s.name}`}
            hideLabel
          />
        </span>
      ),
    },
    {
      id: 'name',
      header: 'Service',
      sortValue: (s) => s.name,
      cell: (s) => (
        <div className="stack-sm" style={{ gap: 4 }}>
          <Link to={`/services/${s.id}`} className="service-name">
            {s.name}
          </Link>
          <ServiceStatus service={s} now={now} evidence={badgeById.get(s.id)} />
        </div>
      ),
    },
    { id: 'hostnames', header: 'Hostnames', sortValue: (s) => s.fqdns?.[0], cell: (s) => <Hosts service={s} /> },
    { id: 'targets', header: 'Targets', className: 'col-targets', headerClassName: 'col-targets', cell: (s) => <Targets service={s} /> },
    { id: 'access', header: 'Access', cell: (s) => <ProtectionIcons protection={s.protection} /> },
    { id: 'backends', header: 'Backends', cell: (s) => <Health h={healthById.get(s.id)} /> },
    {
      id: 'traffic',
      header: 'Traffic',
      sortValue: (s) => metricsById.get(s.id)?.requestRate,
      cell: (s) => <Traffic m={metricsById.get(s.id)} name={s.name} available={!!metrics.data?.reachable} />,
    },
    actionsColumn((s) => (
      <>
        <ButtonLink to={`/services/${s.id}`} size="sm" variant="ghost" icon="edit" iconOnly aria-label={`Edit ${s.name}`} title="Edit" />
        <ButtonLink to={`/services/${s.id}/security`} size="sm" variant="ghost" icon="shield" iconOnly aria-label={`Security of ${s.name}`} title="Security" />
        {canWrite ? <Button size="sm" variant="ghost" icon="trash" iconOnly aria-label={`Delete ${s.name}`} title="Delete" onClick={() => setDeleting(s)} /> : null}
      </>
    )),
  ];

  return (
    <>
      <PageHeader
        title="Services"
        description="Each service is a Traefik router and load balancer, published under one or more hostnames."
        actions={
          canWrite ? (
            <ButtonLink to="/services/new" variant="primary" icon="plus">
              New service
            </ButtonLink>
          ) : null
        }
      />
      {services.isError ? <ErrorState error={services.error} onRetry={() => services.refetch()} /> : null}
      {total > 0 ? (
        <div className="toolbar">
          <div className="search">
            <Icon name="search" size={16} />
            <label htmlFor="svc-search" className="sr-only">
              Search services
            </label>
            <input id="svc-search" className="input" type="search" placeholder="Search by name, hostname or target" value={q} onChange={(e) => setQ(e.target.value)} />
          </div>
          <Button
            icon="activity"
            loading={probe && health.isFetching}
            onClick={() => {
              if (probe) void health.refetch();
              else setProbe(true);
            }}
            title="Connect to every target now and report which ones answer"
          >
            Check backends
          </Button>
          <FilterPanel label="Service filters" active={status === 'all' ? 0 : 1} inline>
            <div className="segmented" role="group" aria-label="Filter by status">
              {statusFilters.map((f) => (
                <button key={f} type="button" aria-pressed={status === f} onClick={() => setStatus(f)}>
                  {f[0]!.toUpperCase() + f.slice(1)}
                </button>
              ))}
            </div>
          </FilterPanel>
        </div>
      ) : null}
      <Card>
        {services.isPending ? (
          <LoadingRows />
        ) : total === 0 && !services.isError ? (
          <EmptyState
            icon="services"
            title="No services yet"
            action={
              canWrite ? (
                <ButtonLink to="/services/new" variant="primary" icon="plus">
                  Create your first service
                </ButtonLink>
              ) : undefined
            }
          >
            A service publishes an upstream (a container, a VM, a NAS…) under a hostname, with HTTPS and optional sign-in.
          </EmptyState>
        ) : list.length === 0 && total > 0 ? (
          <EmptyState icon="search" title="No matching services">
            Nothing matches “{q}”{status !== 'all' ? ` with status ${status}` : ''}.
          </EmptyState>
        ) : (
          <>
            {/* Phones get the richer cards below instead of the table's generic card layout. */}
            <DataTable data={list} rowKey={(s) => s.id} columns={columns} cards={false} wrapClassName="service-table" />
            <div className="service-cards" style={{ padding: 12 }}>
              {list.map((s) => (
                <div key={s.id} className="card service-card">
                  <div className="row-between">
                    <Link to={`/services/${s.id}`} className="service-name">
                      {s.name}
                    </Link>
                    <Switch
                      checked={s.enabled}
                      disabled={!canWrite}
                      onChange={(e) => onToggle(s, e.target.checked)}
                      label={`${s.enabled ? 'Disable' : 'Enable'} ${s.name}`}
                      hideLabel
                    />
                  </div>
                  <div className="row">
                    <ServiceStatus service={s} now={now} evidence={badgeById.get(s.id)} />
                    <ProtectionIcons protection={s.protection} />
                  </div>
                  <Hosts service={s} />
                  <Targets service={s} />
                  <div className="row-between">
                    <div className="meta small muted">
                      <span className="row" style={{ gap: 6 }}>
                        Backends <Health h={healthById.get(s.id)} />
                      </span>
                      {metrics.data?.reachable && metricsById.get(s.id) ? (
                        <Traffic m={metricsById.get(s.id)} name={s.name} available />
                      ) : null}
                    </div>
                    <div className="row" style={{ gap: 4 }}>
                      <ButtonLink to={`/services/${s.id}/security`} size="sm" icon="shield">
                        Security
                      </ButtonLink>
                      {canWrite ? <Button size="sm" variant="ghost" icon="trash" iconOnly aria-label={`Delete ${s.name}`} onClick={() => setDeleting(s)} /> : null}
                    </div>
                  </div>
                </div>
              ))}
            </div>
          </>
        )}
      </Card>
      {total > 0 ? (
        <p className="muted small" style={{ marginTop: 12 }}>
          Showing {list.length} of {total} service{total === 1 ? '' : 's'}.
        </p>
      ) : null}
      <ConfirmDialog
        open={!!deleting}
        title={`Delete ${deleting?.name ?? 'service'}?`}
        message={
          <>
            Traefik stops routing <strong>{deleting?.fqdns?.join(', ')}</strong> on its next poll. Shared links and sessions
            for this service stop working. This cannot be undone.
          </>
        }
        confirmLabel="Delete service"
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      />
    </>
  );
}

function Hosts({ service }: { service: Service }) {
  const fq = service.fqdns ?? [];
  return (
    <div className="host-list">
      {fq.slice(0, 3).map((h) => (
        <a key={h} href={`https://${h.replace(/^\*\./, '')}`} target="_blank" rel="noreferrer noopener" className="truncate" style={{ maxWidth: 260 }}>
          {h}
        </a>
      ))}
      {fq.length > 3 ? <span className="small muted">and {fq.length - 3} more</span> : null}
    </div>
  );
}

function Targets({ service }: { service: Service }) {
  const t = service.targets;
  if (service.kind === 'redirect')
    return (
      <span className="mono small muted nowrap" title={service.redirect?.permanent ? 'Permanent redirect' : 'Temporary redirect'}>
        → {service.redirect?.url}
      </span>
    );
  return (
    <div className="host-list">
      {t.slice(0, 2).map((x, i) => (
        <span key={i} className="mono small muted nowrap" title={`${x.scheme}://${x.host}:${x.port}`}>
          {x.scheme}://{x.host}:{x.port}
        </span>
      ))}
      {t.length > 2 ? <span className="small muted">and {t.length - 2} more (round-robin)</span> : null}
    </div>
  );
}

/** Traefik's view of the backends, or the panel's own TCP probe when that was asked for. */
function Health({ h }: { h?: ServiceHealth }) {
  if (!h || h.servers.length === 0) return <span className="faint small">—</span>;
  const probed = h.servers.some((s) => s.probe === 'up' || s.probe === 'down');
  const known = h.source === 'traefik' || h.servers.some((s) => s.status.toUpperCase() !== 'UNKNOWN');
  const total = h.total ?? h.servers.length;
  let up: number;
  if (probed) up = h.servers.filter((s) => s.probe === 'up').length;
  else if (known) up = h.up ?? h.servers.filter((s) => s.status.toUpperCase() === 'UP').length;
  else
    return (
      <Badge title="Traefik does not report this service yet. Use “Check backends” to probe the targets.">unknown</Badge>
    );
  const tone = up === total ? 'success' : up === 0 ? 'danger' : 'warning';
  const detail = h.servers
    .map((s) => `${s.url}: ${probed ? `${s.probe}${s.probeError ? ` (${s.probeError})` : s.probeMs !== undefined ? ` ${s.probeMs} ms` : ''}` : s.status}`)
    .join('\n');
  return (
    <Badge tone={tone} icon={up === total ? 'check' : 'alert'} title={detail}>
      {up}/{total} {probed ? 'reachable' : 'up'}
    </Badge>
  );
}

function Traffic({ m, name, available }: { m?: ServiceMetrics; name: string; available: boolean }) {
  if (!available || !m) return <span className="faint small">—</span>;
  const values = m.history?.map((p) => p.requestRate) ?? [];
  return (
    <span className="row" style={{ gap: 6, flexWrap: 'nowrap' }}>
      <Sparkline values={values} width={72} label={`${name} traffic: ${formatNumber(m.requestRate)} requests per second`} />
      <span className="small muted nowrap">{formatNumber(m.requestRate)} rps</span>
    </span>
  );
}
