import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, PageHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import type { ProxyConflict } from '@/lib/api-types';
import { useServices } from '@/lib/api/resources';
import { useConflicts } from '../api/runtime';

const kindLabel: Record<string, string> = {
  host: 'Same host',
  sni: 'TCP SNI',
  missing_middleware: 'Missing middleware',
};

export function ConflictsPage() {
  const conflicts = useConflicts();
  const services = useServices();
  const names = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const data = conflicts.data;
  const items = data?.items ?? [];
  const columns: Column<ProxyConflict>[] = [
    {
      id: 'problem',
      header: 'Problem',
      sortValue: (c) => kindLabel[c.kind] ?? c.kind,
      cell: (c) => (
        <div className="stack-sm" style={{ gap: 4 }}>
          <Badge tone={c.kind === 'missing_middleware' ? 'danger' : 'warning'} icon="alert">{kindLabel[c.kind] ?? c.kind}</Badge>
          {c.host ? <span className="mono small">{c.host}</span> : null}
        </div>
      ),
    },
    {
      id: 'service',
      header: 'Gatehouse service',
      sortValue: (c) => names.get(c.serviceId) ?? c.serviceId,
      cell: (c) => <Link to={`/services/${c.serviceId}`}>{names.get(c.serviceId) ?? c.serviceId}</Link>,
    },
    {
      id: 'other',
      header: 'Other side',
      className: 'small',
      cell: (c) =>
        c.kind === 'missing_middleware' ? (
          <span className="mono">{c.middleware}</span>
        ) : c.otherServiceId ? (
          <Link to={`/services/${c.otherServiceId}`}>{names.get(c.otherServiceId) ?? c.otherServiceId}</Link>
        ) : (
          <div className="stack-sm" style={{ gap: 2 }}>
            <span className="mono">{c.router}</span>
            {c.rule ? <span className="mono faint" style={{ overflowWrap: 'anywhere' }}>{c.rule}</span> : null}
          </div>
        ),
    },
    { id: 'message', header: 'What happens', className: 'small muted', style: { maxWidth: 380 }, cell: (c) => c.message ?? '—' },
  ];
  return (
    <>
      <PageHeader title="Conflicts" description="Where a Gatehouse service and another router (Docker labels, files, another service) claim the same host, or a service names a middleware Traefik does not have." />
      <div className="stack">
        {conflicts.isError ? <ErrorState error={conflicts.error} onRetry={() => conflicts.refetch()} title="The conflicts view is unavailable" /> : null}
        <RuntimeBanner status={data} />
        {conflicts.isPending ? (
          <Card><LoadingRows /></Card>
        ) : data?.configured && data.reachable ? (
          <Card>
            <DataTable
              data={items}
              rowKey={(c, i) => `${c.router}-${c.host}-${i}`}
              columns={columns}
              empty={<EmptyState icon="checkCircle" title="No conflicts">Every host is served by exactly one router, and every middleware exists.</EmptyState>}
            />
          </Card>
        ) : null}
      </div>
    </>
  );
}
