import { useTranslation } from 'react-i18next';
import i18n from '@/lib/i18n';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { formatDateTime, formatRelative } from '@/lib/format';
import type { ClusterReplica, ClusterView } from '@/lib/api-types';
import { useCluster } from '../api/cluster';

const ENGINES: Record<ClusterView['engine'], string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function replicaColumns(): Column<ClusterReplica>[] {
  const t = i18n.getFixedT(null, 'system');
  return [
  {
    id: 'id',
    header: t('replicas.replica'),
    className: 'mono small',
    cell: (r) => (
      <>
        {r.id}
        {r.this ? (
          <>
            {' '}
            <Badge tone="info">{t('replicas.this')}</Badge>
          </>
        ) : null}
      </>
    ),
  },
  { id: 'address', header: t('replicas.address'), className: 'mono small', cell: (r) => r.address || t('replicas.localSocket') },
  { id: 'since', header: t('replicas.since'), sortValue: (r) => Date.parse(r.since), cell: (r) => <span title={formatDateTime(r.since)}>{formatRelative(r.since)}</span> },
  {
    id: 'role',
    header: t('replicas.role'),
    cell: (r) => (
      <div className="row" style={{ gap: 6 }}>
        {r.leader ? (
          <Badge tone="success" icon="check">
            {t('replicas.leader')}
          </Badge>
        ) : (
          <Badge>{t('replicas.follower')}</Badge>
        )}
        {r.listening ? null : (
          <Badge tone="warning" icon="alert" title={t('replicas.notListeningTitle')}>
            {t('replicas.notListening')}
          </Badge>
        )}
      </div>
    ),
  },
  ];
}

/** The replicas sharing the database, as the database server sees them. */
export function ReplicasCard() {
  const { t } = useTranslation('system');
  const cluster = useCluster();
  const v = cluster.data;
  return (
    <Card>
      <CardHeader
        title={t('replicas.title')}
        description={v ? t('replicas.engine', { engine: ENGINES[v.engine] ?? v.engine }) : t('replicas.description')}
      />
      {cluster.isError ? <ErrorState error={cluster.error} onRetry={() => cluster.refetch()} title={t('replicas.loadFailed')} /> : null}
      {cluster.isPending ? <LoadingRows rows={2} /> : null}
      {v ? <ReplicasBody view={v} /> : null}
    </Card>
  );
}

export function ReplicasBody({ view }: { view: ClusterView }) {
  const { t } = useTranslation('system');
  if (view.engine === 'sqlite') {
    return (
      <div className="card-body">
        <p className="muted">
          {t('replicas.sqlite')}
        </p>
      </div>
    );
  }
  return (
    <>
      <p className="card-body muted small">
        {t('replicas.postgres')}
      </p>
      <DataTable data={view.replicas} rowKey={(r) => r.id} columns={replicaColumns()} label={t('replicas.title')} />
    </>
  );
}
