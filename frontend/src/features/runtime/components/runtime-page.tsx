import { useMemo } from 'react';
import { Link } from 'react-router';
import { Card, PageHeader } from '@/components/ui/card';
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
        title="Runtime"
        description={data?.version ? `What Traefik ${data.version} is running right now, from every provider.` : "What Traefik is running right now, from every provider."}
      />
      <div className="stack">
        {runtime.isError ? <ErrorState error={runtime.error} onRetry={() => runtime.refetch()} title="The runtime view is unavailable" /> : null}
        <RuntimeBanner status={data} />
        {runtime.isPending ? (
          <Card><LoadingRows /></Card>
        ) : live ? (
          <Card>
            <div className="card-body" style={{ paddingBottom: 0 }}>
              <div className="toolbar">
                <div className="search">
                  <Icon name="search" size={16} />
                  <label htmlFor="rt-search" className="sr-only">Filter</label>
                  <input id="rt-search" className="input" type="search" placeholder="Filter by name, rule, provider…" value={q} onChange={(e) => setQ(e.target.value)} />
                </div>
              </div>
              <Tabs
                label="Runtime sections"
                value={tab}
                onChange={setTab}
                tabs={[
                  { id: 'routers', label: 'HTTP routers', count: lists.routers.length },
                  { id: 'services', label: 'Services', count: lists.services.length },
                  { id: 'middlewares', label: 'Middlewares', count: lists.middlewares.length },
                  { id: 'tcp', label: 'TCP', count: lists.tcp.length },
                  { id: 'udp', label: 'UDP', count: lists.udp.length },
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
  if (!items.length) return <EmptyState icon="layers" title="Nothing here" />;
  return (
    <div className="table-wrap">
      <table className="table stacked">
        <thead>
          <tr>
            <th scope="col">Router</th>
            <th scope="col">Rule</th>
            <th scope="col">Entrypoints</th>
            <th scope="col">Status</th>
            <th scope="col">Owner</th>
          </tr>
        </thead>
        <tbody>
          {items.map((r) => (
            <tr key={r.name}>
              <td className="mono small">{r.name}</td>
              <td className="mono small" style={{ maxWidth: 360, overflowWrap: 'anywhere' }} data-label="Rule">{r.rule ?? '—'}</td>
              <td className="mono small" data-label="Entrypoints">{r.entryPoints?.join(', ') ?? '—'}</td>
              <td data-label="Status"><RuntimeStatusBadge status={r.status} /></td>
              <td className="small" data-label="Owner">
                {r.serviceId ? <Link to={`/services/${r.serviceId}`}>{names.get(r.serviceId) ?? 'Gatehouse service'}</Link> : <span className="muted">{r.provider ?? '—'}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EntryTable({ items }: { items: RuntimeEntry[] }) {
  if (!items.length) return <EmptyState icon="layers" title="Nothing here" />;
  return (
    <div className="table-wrap">
      <table className="table stacked">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Provider</th>
            <th scope="col">Servers</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {items.map((e) => (
            <tr key={e.name}>
              <td className="mono small">{e.name}</td>
              <td className="small" data-label="Type">{e.type ?? '—'}</td>
              <td className="small muted" data-label="Provider">{e.provider ?? '—'}</td>
              <td className="small" data-label="Servers">{e.serversTotal ? `${e.serversUp ?? 0}/${e.serversTotal} up` : '—'}</td>
              <td data-label="Status">
                <RuntimeStatusBadge status={e.status} />
                {e.errors?.length ? <div className="small" style={{ color: 'var(--danger)' }}>{e.errors.join('; ')}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
