import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card, PageHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Icon } from '@/components/ui/icons';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import { Tabs } from '@/components/ui/tabs';
import type { RuntimeEntry, RuntimeRouter } from '@/lib/api-types';
import { useRuntime, useServices } from '@/lib/api/resources';
import { useUrlParam } from '@/lib/url-state';
import { toList } from '../api/runtime';
import { RuntimeStatusBadge } from './status-badge';

const tabs = ['routers', 'services', 'middlewares', 'tcp', 'udp'] as const;
type Tab = (typeof tabs)[number];

export function RuntimePage() {
  const { t } = useTranslation('runtime');
  const runtime = useRuntime();
  const services = useServices();
  const [tab, setTab] = useUrlParam<Tab>('tab', 'routers', tabs);
  const [q, setQ] = useUrlParam('q');
  const data = runtime.data;
  const names = useMemo(() => new Map((services.data ?? []).map((s) => [s.id, s.name])), [services.data]);
  const lists = {
    routers: toList<RuntimeRouter>(data?.routers),
    services: toList<RuntimeEntry>(data?.services),
    middlewares: toList<RuntimeEntry>(data?.middlewares),
    tcp: toList<RuntimeRouter>(data?.tcpRouters),
    udp: toList<RuntimeRouter>(data?.udpRouters),
  };
  const filter = <T extends { name: string }>(l: T[]) => l.filter((x) => !q || JSON.stringify(x).toLowerCase().includes(q.toLowerCase()));
  const live = data?.configured && data.reachable;
  return (
    <>
      <PageHeader
        title={t('page.title')}
        description={data?.version ? t('page.descriptionVersion', { version: data.version }) : t('page.description')}
      />
      <div className="stack">
        {runtime.isError ? <ErrorState error={runtime.error} onRetry={() => runtime.refetch()} title={t('page.unavailable')} /> : null}
        <RuntimeBanner status={data} />
        {runtime.isPending ? (
          <Card><LoadingRows /></Card>
        ) : live ? (
          <Card>
            <div className="card-body" style={{ paddingBottom: 0 }}>
              <div className="toolbar">
                <div className="search">
                  <Icon name="search" size={16} />
                  <label htmlFor="rt-search" className="sr-only">
                    {t('page.filter')}
                  </label>
                  <input id="rt-search" className="input" type="search" placeholder={t('page.filterPlaceholder')} value={q} onChange={(e) => setQ(e.target.value)} />
                </div>
              </div>
              <Tabs
                label={t('page.sections')}
                value={tab}
                onChange={setTab}
                tabs={[
                  { id: 'routers', label: t('page.tabs.routers'), count: lists.routers.length },
                  { id: 'services', label: t('page.tabs.services'), count: lists.services.length },
                  { id: 'middlewares', label: t('page.tabs.middlewares'), count: lists.middlewares.length },
                  { id: 'tcp', label: t('page.tabs.tcp'), count: lists.tcp.length },
                  { id: 'udp', label: t('page.tabs.udp'), count: lists.udp.length },
                ]}
              />
            </div>
            {tab === 'routers' || tab === 'tcp' || tab === 'udp' ? (
              <RouterTable items={filter(lists[tab])} names={names} />
            ) : (
              <EntryTable items={filter(lists[tab])} />
            )}
          </Card>
        ) : null}
      </div>
    </>
  );
}

function RouterTable({ items, names }: { items: RuntimeRouter[]; names: Map<string, string> }) {
  const { t } = useTranslation('runtime');
  const columns: Column<RuntimeRouter>[] = [
    { id: 'name', header: t('routers.router'), className: 'mono small', sortValue: (r) => r.name, cell: (r) => r.name },
    { id: 'rule', header: t('routers.rule'), className: 'mono small', style: { maxWidth: 360, overflowWrap: 'anywhere' }, cell: (r) => r.rule ?? '—' },
    { id: 'entryPoints', header: t('routers.entrypoints'), className: 'mono small', cell: (r) => r.entryPoints?.join(', ') ?? '—' },
    { id: 'status', header: t('routers.status'), sortValue: (r) => r.status, cell: (r) => <RuntimeStatusBadge status={r.status} /> },
    {
      id: 'owner',
      header: t('routers.owner'),
      className: 'small',
      cell: (r) =>
        r.serviceId ? <Link to={`/services/${r.serviceId}`}>{names.get(r.serviceId) ?? t('routers.gatehouseService')}</Link> : <span className="muted">{r.provider ?? '—'}</span>,
    },
  ];
  return <DataTable data={items} rowKey={(r) => r.name} columns={columns} empty={<EmptyState icon="layers" title={t('page.nothing')} />} />;
}

function EntryTable({ items }: { items: RuntimeEntry[] }) {
  const { t } = useTranslation('runtime');
  const entryColumns: Column<RuntimeEntry>[] = [
    { id: 'name', header: t('entries.name'), className: 'mono small', sortValue: (e) => e.name, cell: (e) => e.name },
    { id: 'type', header: t('entries.type'), className: 'small', sortValue: (e) => e.type, cell: (e) => e.type ?? '—' },
    { id: 'provider', header: t('entries.provider'), className: 'small muted', sortValue: (e) => e.provider, cell: (e) => e.provider ?? '—' },
    {
      id: 'servers',
      header: t('entries.servers'),
      className: 'small',
      cell: (e) => (e.serversTotal ? t('entries.serversUp', { up: e.serversUp ?? 0, total: e.serversTotal }) : '—'),
    },
    {
      id: 'status',
      header: t('entries.status'),
      sortValue: (e) => e.status,
      cell: (e) => (
        <>
          <RuntimeStatusBadge status={e.status} />
          {e.errors?.length ? <div className="small" style={{ color: 'var(--danger)' }}>{e.errors.join('; ')}</div> : null}
        </>
      ),
    },
  ];
  return <DataTable data={items} rowKey={(e) => e.name} columns={entryColumns} empty={<EmptyState icon="layers" title={t('page.nothing')} />} />;
}
