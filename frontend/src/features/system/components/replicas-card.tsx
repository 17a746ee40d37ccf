import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { formatDateTime, formatRelative } from '@/lib/format';
import type { ClusterReplica, ClusterView } from '@/lib/api-types';
import { useCluster } from '../api/cluster';

const ENGINES: Record<ClusterView['engine'], string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const replicaColumns: Column<ClusterReplica>[] = [
  {
    id: 'id',
    header: 'Replica',
    className: 'mono small',
    cell: (r) => (
      <>
        {r.id}
        {r.this ? (
          <>
            {' '}
            <Badge tone="info">This replica</Badge>
          </>
        ) : null}
      </>
    ),
  },
  { id: 'address', header: 'Address', className: 'mono small', cell: (r) => r.address || 'local socket' },
  { id: 'since', header: 'Up since', sortValue: (r) => Date.parse(r.since), cell: (r) => <span title={formatDateTime(r.since)}>{formatRelative(r.since)}</span> },
  {
    id: 'role',
    header: 'Role',
    cell: (r) => (
      <div className="row" style={{ gap: 6 }}>
        {r.leader ? (
          <Badge tone="success" icon="check">
            Leader
          </Badge>
        ) : (
          <Badge>Follower</Badge>
        )}
        {r.listening ? null : (
          <Badge tone="warning" icon="alert" title="Its LISTEN connection is down: it does not hear the other replicas' changes until it reconnects.">
            Not listening
          </Badge>
        )}
      </div>
    ),
  },
];

/** The replicas sharing the database, as the database server sees them. */
export function ReplicasCard() {
  const cluster = useCluster();
  const v = cluster.data;
  return (
    <Card>
      <CardHeader
        title="Replicas"
        description={v ? `Database engine: ${ENGINES[v.engine] ?? v.engine}` : 'The panel processes sharing the database, and the one that runs the background jobs.'}
      />
      {cluster.isError ? <ErrorState error={cluster.error} onRetry={() => cluster.refetch()} title="Could not load the replicas" /> : null}
      {cluster.isPending ? <LoadingRows rows={2} /> : null}
      {v ? <ReplicasBody view={v} /> : null}
    </Card>
  );
}

export function ReplicasBody({ view }: { view: ClusterView }) {
  if (view.engine === 'sqlite') {
    return (
      <div className="card-body">
        <p className="muted">
          This panel runs alone on SQLite: one process owns the database file. To run several replicas behind one Traefik, move to PostgreSQL as
          docs/replicas.md explains in “Several replicas (PostgreSQL)”.
        </p>
      </div>
    );
  }
  return (
    <>
      <p className="card-body muted small">
        Listed from PostgreSQL’s own view (pg_stat_activity and pg_locks): a replica shows here while its connections are open. The leader runs the
        jobs that must run once for all replicas.
      </p>
      <DataTable data={view.replicas} rowKey={(r) => r.id} columns={replicaColumns} label="Replicas" />
    </>
  );
}
