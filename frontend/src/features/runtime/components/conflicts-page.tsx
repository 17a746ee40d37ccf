import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, PageHeader } from '@/components/ui/card';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import { useServices } from '@/lib/api/resources';
import { useConflicts } from '../api/runtime';

export function ConflictsPage() {
  const conflicts = useConflicts();
  const services = useServices();
  const names = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const data = conflicts.data;
  const items = data?.items ?? [];
  return (
    <>
      <PageHeader title="Conflicts" description="Hostnames that a Gatehouse service shares with a router from another Traefik provider (Docker labels, files…). Traefik picks one by rule priority, which is rarely what you want." />
      <div className="stack">
        {conflicts.isError ? <ErrorState error={conflicts.error} onRetry={() => conflicts.refetch()} title="The conflicts view is unavailable" /> : null}
        <RuntimeBanner status={data} />
        {conflicts.isPending ? (
          <Card><LoadingRows /></Card>
        ) : data?.configured && data.reachable ? (
          <Card>
            {items.length === 0 ? (
              <EmptyState icon="checkCircle" title="No conflicts">Every hostname is served by exactly one router.</EmptyState>
            ) : (
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Hostname</th>
                      <th scope="col">Gatehouse service</th>
                      <th scope="col">Other router</th>
                      <th scope="col">Provider</th>
                      <th scope="col">Kind</th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((c, i) => (
                      <tr key={`${c.router}-${c.host}-${i}`}>
                        <td className="mono small">{c.host}</td>
                        <td><Link to={`/services/${c.serviceId}`}>{names.get(c.serviceId) ?? c.serviceId}</Link></td>
                        <td className="mono small">{c.router}</td>
                        <td className="small">{c.provider}</td>
                        <td><Badge tone="warning" icon="alert">{c.kind}</Badge></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
        ) : null}
      </div>
    </>
  );
}
