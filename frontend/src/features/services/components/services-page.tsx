import { useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { FilterPanel } from '@/components/ui/filter-panel';
import { Icon } from '@/components/ui/icons';
import { ConfirmDialog } from '@/components/ui/modal';
import { Sparkline } from '@/components/charts/sparkline';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { Switch } from '@/components/ui/switch';
import { useCanWrite } from '@/lib/api/system';
import type { Service, ServiceHealth, ServiceMetrics, ServiceTraffic } from '@/lib/api-types';
import { useProxyHealth, useProxyMetrics, useProxyStatus, useServices } from '@/lib/api/resources';
import { useServicesTraffic } from '@/lib/api/traffic';
import { useUrlParam } from '@/lib/url-state';
import { formatCompact, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useNow } from '@/lib/use-now';
import { useContainerBindings } from '../api/container-bindings';
import { useDeleteService, useToggleService } from '../api/services';
import { ContainerBadge } from './container-badge';
import { isStream, KindBadge } from './kind-badge';
import { ProtectionIcons } from './protection-icons';
import { ServiceStatus } from './service-status';

const statusFilters = ['all', 'enabled', 'disabled', 'protected', 'public'] as const;
type StatusFilter = (typeof statusFilters)[number];
// http is the usual kind (a proxy or a redirect); tcp and udp route connections and datagrams.
const kindFilters = ['all', 'http', 'tcp', 'udp'] as const;
type KindFilter = (typeof kindFilters)[number];

/** Whether s is of the kind the filter asks for. */
export function matchesKind(s: Pick<Service, 'kind'>, kind: KindFilter): boolean {
  if (kind === 'all') return true;
  if (kind === 'http') return !isStream(s.kind);
  return s.kind === kind;
}

function matches(s: Service, q: string): boolean {
  if (!q) return true;
  const hay = [s.name, ...(s.fqdns ?? []), ...s.targets.map((t) => `${t.host}:${t.port}`)].join(' ').toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .every((w) => hay.includes(w));
}

/**
 * Whether the status filter counts s as protected. An HTTP service is when a protection is on. A TCP
 * or UDP service takes none (the server refuses them, and one left by an older release keeps it unrouted),
 * so it counts as protected when its own allow list restricts its clients, and as public otherwise:
 * anyone who reaches its entrypoint gets through.
 */
export function isProtected(s: Pick<Service, 'kind' | 'protection' | 'tcp'>): boolean {
  if (isStream(s.kind)) return (s.tcp?.allowList ?? []).length > 0;
  const p = s.protection;
  return !!(p?.basicAuth || p?.sso || p?.sharedLinks || p?.tokens || p?.emailCode || p?.people);
}

export function ServicesPage() {
  const { t } = useTranslation(['services', 'common']);
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
  const [kind, setKind] = useUrlParam<KindFilter>('kind', 'all', kindFilters);
  const [deleting, setDeleting] = useState<Service | null>(null);

  const proxyStatus = useProxyStatus();
  const bindings = useContainerBindings();
  const bindingById = useMemo(() => new Map((bindings.data ?? []).map((b) => [b.serviceId, b])), [bindings.data]);
  const badgeById = useMemo(() => new Map((proxyStatus.data?.services ?? []).map((b) => [b.serviceId, b])), [proxyStatus.data]);
  const healthById = useMemo(() => new Map((health.data?.items ?? []).map((h) => [h.serviceId, h])), [health.data]);
  const metricsById = useMemo(() => new Map((metrics.data?.items ?? []).map((m) => [m.serviceId, m])), [metrics.data]);
  // Every row's sparkline from one request: the last 24 hours in 24 steps.
  const traffic = useServicesTraffic('24h', 24);
  const historyById = useMemo(
    () => new Map((traffic.data?.state === 'ok' ? (traffic.data.services ?? []) : []).map((h) => [h.serviceId, h])),
    [traffic.data],
  );

  const list = (services.data ?? []).filter(
    (s) =>
      matches(s, q.trim()) &&
      matchesKind(s, kind) &&
      (status === 'all' ||
        (status === 'enabled' && s.enabled) ||
        (status === 'disabled' && !s.enabled) ||
        (status === 'protected' && isProtected(s)) ||
        (status === 'public' && !isProtected(s))),
  );

  const onToggle = (s: Service, enabled: boolean) =>
    toggle.mutate(
      { service: s, enabled },
      { onSuccess: () => toast.success(enabled ? t('toast.enabled', { name: s.name }) : t('toast.disabled', { name: s.name })) },
    );

  const total = services.data?.length ?? 0;
  // The kind filter shows once there is a TCP or UDP service to tell apart (or a filter to undo).
  const showKinds = kind !== 'all' || (services.data ?? []).some((s) => isStream(s.kind));
  const kindName = t(`list.kindFilters.${kind}`);
  const columns: Column<Service>[] = [
    {
      // Its own column, first: the switch never sits beside Delete.
      id: 'enabled',
      header: t('list.columns.enabled'),
      cell: (s) => (
        <span style={{ display: 'inline-flex', verticalAlign: 'middle' }} title={s.enabled ? t('common:words.enabled') : t('common:words.disabled')}>
          <Switch
            checked={s.enabled}
            disabled={!canWrite || (toggle.isPending && toggle.variables?.service.id === s.id)}
            onChange={(e) => onToggle(s, e.target.checked)}
            label={s.enabled ? t('list.disable', { name: s.name }) : t('list.enable', { name: s.name })}
            hideLabel
          />
        </span>
      ),
    },
    {
      id: 'name',
      header: t('list.columns.service'),
      sortValue: (s) => s.name,
      cell: (s) => (
        <div className="stack-sm" style={{ gap: 4 }}>
          <ServiceName service={s} />
          <ServiceStatus service={s} now={now} evidence={badgeById.get(s.id)} />
          {bindingById.has(s.id) ? (
            <span className="row" style={{ gap: 4 }}>
              <ContainerBadge binding={bindingById.get(s.id)} />
            </span>
          ) : null}
        </div>
      ),
    },
    { id: 'hostnames', header: t('list.columns.hostnames'), sortValue: (s) => s.fqdns?.[0], cell: (s) => <Hosts service={s} /> },
    { id: 'targets', header: t('list.columns.targets'), className: 'col-targets', headerClassName: 'col-targets', cell: (s) => <Targets service={s} /> },
    { id: 'access', header: t('list.columns.access'), cell: (s) => (isStream(s.kind) ? <StreamAccess protection={s.protection} /> : <ProtectionIcons protection={s.protection} />) },
    { id: 'backends', header: t('list.columns.backends'), cell: (s) => (s.kind === 'udp' ? <HttpOnly /> : <Health h={healthById.get(s.id)} />) },
    {
      id: 'traffic',
      header: t('list.columns.traffic'),
      sortValue: (s) => (isStream(s.kind) ? undefined : (historyById.get(s.id)?.requests ?? metricsById.get(s.id)?.requestRate)),
      cell: (s) =>
        isStream(s.kind) ? <HttpOnly /> : <Traffic m={metricsById.get(s.id)} h={historyById.get(s.id)} name={s.name} available={!!metrics.data?.reachable} />,
    },
    actionsColumn((s) => (
      <>
        <ButtonLink to={`/services/${s.id}`} size="sm" variant="ghost" icon="edit" iconOnly aria-label={t('list.edit', { name: s.name })} title={t('common:actions.edit')} />
        {/* Protections answer HTTP requests: a TCP or UDP service has none to set. */}
        {isStream(s.kind) ? null : (
          <ButtonLink to={`/services/${s.id}/security`} size="sm" variant="ghost" icon="shield" iconOnly aria-label={t('list.securityOf', { name: s.name })} title={t('list.security')} />
        )}
        {canWrite ? <Button size="sm" variant="ghost" icon="trash" iconOnly aria-label={t('list.delete', { name: s.name })} title={t('common:actions.delete')} onClick={() => setDeleting(s)} /> : null}
      </>
    )),
  ];

  return (
    <>
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          canWrite ? (
            <ButtonLink to="/services/new" variant="primary" icon="plus">
              {t('list.new')}
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
              {t('list.searchLabel')}
            </label>
            <input id="svc-search" className="input" type="search" placeholder={t('list.searchPlaceholder')} value={q} onChange={(e) => setQ(e.target.value)} />
          </div>
          <Button
            icon="activity"
            loading={probe && health.isFetching}
            onClick={() => {
              if (probe) void health.refetch();
              else setProbe(true);
            }}
            title={t('list.checkBackendsTitle')}
          >
            {t('list.checkBackends')}
          </Button>
          <FilterPanel label={t('list.filtersLabel')} active={(status === 'all' ? 0 : 1) + (kind === 'all' ? 0 : 1)} className={showKinds ? 'row' : undefined} inline>
            <Segmented label={t('list.filterLabel')} options={statusFilters} value={status} onChange={setStatus} text={(f) => t(`list.filters.${f}`)} />
            {showKinds ? <Segmented label={t('list.kindFilterLabel')} options={kindFilters} value={kind} onChange={setKind} text={(f) => t(`list.kindFilters.${f}`)} /> : null}
          </FilterPanel>
        </div>
      ) : null}
      <Card>
        {services.isPending ? (
          <LoadingRows />
        ) : total === 0 && !services.isError ? (
          <EmptyState
            icon="services"
            title={t('list.emptyTitle')}
            action={
              canWrite ? (
                <ButtonLink to="/services/new" variant="primary" icon="plus">
                  {t('list.createFirst')}
                </ButtonLink>
              ) : undefined
            }
          >
            {t('list.emptyBody')}
          </EmptyState>
        ) : list.length === 0 && total > 0 ? (
          <EmptyState icon="search" title={t('list.noMatchTitle')}>
            {kind !== 'all'
              ? status !== 'all'
                ? t('list.noMatchStatusKind', { q, kind: kindName, status: t(`list.filters.${status}`) })
                : t('list.noMatchKind', { q, kind: kindName })
              : status !== 'all'
                ? t('list.noMatchStatus', { q, status: t(`list.filters.${status}`) })
                : t('list.noMatch', { q })}
          </EmptyState>
        ) : (
          <>
            {/* Phones get the richer cards below instead of the table's generic card layout. */}
            <DataTable data={list} rowKey={(s) => s.id} columns={columns} cards={false} wrapClassName="service-table" />
            <div className="service-cards" style={{ padding: 12 }}>
              {list.map((s) => (
                <div key={s.id} className="card service-card">
                  <div className="row-between">
                    <ServiceName service={s} />
                    <Switch
                      checked={s.enabled}
                      disabled={!canWrite}
                      onChange={(e) => onToggle(s, e.target.checked)}
                      label={s.enabled ? t('list.disable', { name: s.name }) : t('list.enable', { name: s.name })}
                      hideLabel
                    />
                  </div>
                  <div className="row">
                    <ServiceStatus service={s} now={now} evidence={badgeById.get(s.id)} />
                    {isStream(s.kind) ? <StreamAccess protection={s.protection} hideDash /> : <ProtectionIcons protection={s.protection} />}
                  </div>
                  <Hosts service={s} />
                  <Targets service={s} />
                  <div className="row-between">
                    <div className="meta small muted">
                      {s.kind === 'udp' ? null : (
                        <span className="row" style={{ gap: 6 }}>
                          {t('list.columns.backends')} <Health h={healthById.get(s.id)} />
                        </span>
                      )}
                      {!isStream(s.kind) && (historyById.get(s.id) || (metrics.data?.reachable && metricsById.get(s.id))) ? (
                        <Traffic m={metricsById.get(s.id)} h={historyById.get(s.id)} name={s.name} available={!!metrics.data?.reachable} />
                      ) : null}
                    </div>
                    <div className="row" style={{ gap: 4 }}>
                      {isStream(s.kind) ? null : (
                        <ButtonLink to={`/services/${s.id}/security`} size="sm" icon="shield">
                          {t('list.security')}
                        </ButtonLink>
                      )}
                      {canWrite ? <Button size="sm" variant="ghost" icon="trash" iconOnly aria-label={t('list.delete', { name: s.name })} onClick={() => setDeleting(s)} /> : null}
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
          {t('list.showing', { shown: list.length, count: total })}
        </p>
      ) : null}
      <ConfirmDialog
        open={!!deleting}
        title={deleting ? t('list.deleteTitle', { name: deleting.name }) : t('list.deleteTitleFallback')}
        message={
          <Trans t={t} i18nKey="list.deleteMessage" values={{ hosts: deleting?.fqdns?.join(', ') ?? '' }} components={{ b: <strong /> }} />
        }
        confirmLabel={t('list.deleteConfirm')}
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      />
    </>
  );
}

/** The service's name, a link to its page, with its TCP or UDP badge. */
function ServiceName({ service: s }: { service: Service }) {
  return (
    <span className="row" style={{ gap: 6 }}>
      <Link to={`/services/${s.id}`} className="service-name">
        {s.name}
      </Link>
      <KindBadge kind={s.kind} />
    </span>
  );
}

/** One choice of a few, as pressed buttons: a filter of the list. */
function Segmented<T extends string>({ label, options, value, onChange, text }: { label: string; options: readonly T[]; value: T; onChange: (v: T) => void; text: (v: T) => string }) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {options.map((f) => (
        <button key={f} type="button" aria-pressed={value === f} onClick={() => onChange(f)}>
          {text(f)}
        </button>
      ))}
    </div>
  );
}

/** Where a column's figure is about HTTP requests: a dash, and why for those who ask. */
function HttpOnly() {
  const { t } = useTranslation('services');
  return (
    <span className="faint small" title={t('list.httpOnly')}>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{t('list.httpOnly')}</span>
    </span>
  );
}

/**
 * A TCP or UDP service's Access cell: a dash, since HTTP protections do not apply, unless a
 * protection or access rules (its own or the global ones) would guard it anyway: then the service
 * is left out of Traefik's configuration (dynconf's streamService), and the cell says so. The
 * server decides (streamGuarded), as the configuration builder does.
 */
function StreamAccess({ protection: p, hideDash }: { protection?: Service['protection']; hideDash?: boolean }) {
  const { t } = useTranslation('services');
  if (p?.streamGuarded)
    return (
      <Badge tone="danger" icon="alert" title={t('list.streamProtectedTitle')}>
        {t('list.streamProtected')}
      </Badge>
    );
  return hideDash ? null : <HttpOnly />;
}

function Hosts({ service }: { service: Service }) {
  const { t } = useTranslation(['services', 'common']);
  const fq = service.fqdns ?? [];
  if (isStream(service.kind)) {
    // A tcp service's names are the TLS names (SNI) it takes, not web addresses; a udp one has none.
    const eps = service.entrypoints ?? [];
    return (
      <div className="host-list">
        {fq.slice(0, 3).map((h) => (
          <span key={h} className="mono small truncate" style={{ maxWidth: 260 }}>
            {h}
          </span>
        ))}
        {fq.length > 3 ? <span className="small muted">{t('list.moreHosts', { count: fq.length - 3 })}</span> : null}
        {eps.length ? (
          <span className="small muted">{t('list.entrypoints', { count: eps.length, names: eps.join(', ') })}</span>
        ) : fq.length === 0 ? (
          <span className="faint small">—</span>
        ) : null}
      </div>
    );
  }
  return (
    <div className="host-list">
      {fq.slice(0, 3).map((h) => (
        <a key={h} href={`https://${h.replace(/^\*\./, '')}`} target="_blank" rel="noreferrer noopener" className="truncate" style={{ maxWidth: 260 }}>
          {h}
        </a>
      ))}
      {fq.length > 3 ? <span className="small muted">{t('list.moreHosts', { count: fq.length - 3 })}</span> : null}
    </div>
  );
}

function Targets({ service }: { service: Service }) {
  const { t } = useTranslation(['services', 'common']);
  const targets = service.targets;
  if (service.kind === 'redirect')
    return (
      <span className="mono small muted nowrap" title={service.redirect?.permanent ? t('list.permanentRedirect') : t('list.temporaryRedirect')}>
        → {service.redirect?.url}
      </span>
    );
  return (
    <div className="host-list">
      {targets.slice(0, 2).map((x, i) => (
        <span key={i} className="mono small muted nowrap" title={`${x.scheme}://${x.host}:${x.port}`}>
          {x.scheme}://{x.host}:{x.port}
        </span>
      ))}
      {targets.length > 2 ? <span className="small muted">{t('list.moreTargets', { count: targets.length - 2 })}</span> : null}
    </div>
  );
}

/** Traefik's view of the backends, or the panel's own TCP probe when that was asked for. */
function Health({ h }: { h?: ServiceHealth }) {
  const { t } = useTranslation(['services', 'common']);
  if (!h || h.servers.length === 0) return <span className="faint small">—</span>;
  const probed = h.servers.some((s) => s.probe === 'up' || s.probe === 'down');
  const known = h.source === 'traefik' || h.servers.some((s) => s.status.toUpperCase() !== 'UNKNOWN');
  const total = h.total ?? h.servers.length;
  let up: number;
  if (probed) up = h.servers.filter((s) => s.probe === 'up').length;
  else if (known) up = h.up ?? h.servers.filter((s) => s.status.toUpperCase() === 'UP').length;
  else
    return (
      <Badge title={t('list.health.unknownTitle')}>{t('list.health.unknown')}</Badge>
    );
  const tone = up === total ? 'success' : up === 0 ? 'danger' : 'warning';
  const detail = h.servers
    .map((s) => `${s.url}: ${probed ? `${s.probe}${s.probeError ? ` (${s.probeError})` : s.probeMs !== undefined ? ` ${s.probeMs} ms` : ''}` : s.status}`)
    .join('\n');
  return (
    <Badge tone={tone} icon={up === total ? 'check' : 'alert'} title={detail}>
      {probed ? t('list.health.reachable', { up, total }) : t('list.health.up', { up, total })}
    </Badge>
  );
}

/**
 * The row's traffic: the last 24 hours' sparkline from the history when there is one, with
 * Traefik's live request rate beside it (or the day's count without it); else the live view's
 * last minutes.
 */
function Traffic({ m, h, name, available }: { m?: ServiceMetrics; h?: ServiceTraffic; name: string; available: boolean }) {
  const { t } = useTranslation(['services', 'common']);
  if (h) {
    const live = available && m;
    return (
      <span className="row" style={{ gap: 6, flexWrap: 'nowrap' }} data-testid="service-traffic">
        <Link to={`/services/${h.serviceId}/traffic`} aria-label={t('list.trafficDay', { name, count: h.requests, n: formatNumber(h.requests, 0) })}>
          <Sparkline values={h.points ?? []} width={72} label={t('list.trafficDay', { name, count: h.requests, n: formatNumber(h.requests, 0) })} />
        </Link>
        <span className="small muted nowrap">{live ? t('list.rps', { rate: formatNumber(m.requestRate) }) : t('list.perDay', { n: formatCompact(h.requests) })}</span>
      </span>
    );
  }
  if (!available || !m) return <span className="faint small">—</span>;
  const values = m.history?.map((p) => p.requestRate) ?? [];
  return (
    <span className="row" style={{ gap: 6, flexWrap: 'nowrap' }}>
      <Sparkline values={values} width={72} label={t('list.trafficLabel', { name, rate: formatNumber(m.requestRate) })} />
      <span className="small muted nowrap">{t('list.rps', { rate: formatNumber(m.requestRate) })}</span>
    </span>
  );
}
