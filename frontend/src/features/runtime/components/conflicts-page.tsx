import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, PageHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState, ErrorState, LoadingRows, RuntimeBanner } from '@/components/ui/states';
import type { ProxyConflict } from '@/lib/api-types';
import { useServices } from '@/lib/api/resources';
import { useConflicts } from '../api/runtime';

const kinds = ['host', 'sni', 'missing_middleware'] as const;

export function ConflictsPage() {
  const { t } = useTranslation('runtime');
  const kindLabel = (kind: string) => ((kinds as readonly string[]).includes(kind) ? t(`conflicts.kinds.${kind as (typeof kinds)[number]}`) : kind);
  const conflicts = useConflicts();
  const services = useServices();
  const names = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const data = conflicts.data;
  const items = data?.items ?? [];
  const columns: Column<ProxyConflict>[] = [
    {
      id: 'problem',
      header: t('conflicts.columns.problem'),
      sortValue: (c) => kindLabel(c.kind),
      cell: (c) => (
        <div className="stack-sm" style={{ gap: 4 }}>
          <Badge tone={c.kind === 'missing_middleware' ? 'danger' : 'warning'} icon="alert">{kindLabel(c.kind)}</Badge>
          {c.host ? <span className="mono small">{c.host}</span> : null}
        </div>
      ),
    },
    {
      id: 'service',
      header: t('conflicts.columns.service'),
      sortValue: (c) => names.get(c.serviceId) ?? c.serviceId,
      cell: (c) => <Link to={`/services/${c.serviceId}`}>{names.get(c.serviceId) ?? c.serviceId}</Link>,
    },
    {
      id: 'other',
      header: t('conflicts.columns.other'),
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
    { id: 'message', header: t('conflicts.columns.message'), className: 'small muted', style: { maxWidth: 380 }, cell: (c) => c.message ?? '—' },
  ];
  return (
    <>
      <PageHeader title={t('conflicts.title')} description={t('conflicts.description')} />
      <div className="stack">
        {conflicts.isError ? <ErrorState error={conflicts.error} onRetry={() => conflicts.refetch()} title={t('conflicts.unavailable')} /> : null}
        <RuntimeBanner status={data} />
        {conflicts.isPending ? (
          <Card><LoadingRows /></Card>
        ) : data?.configured && data.reachable ? (
          <Card>
            <DataTable
              data={items}
              rowKey={(c, i) => `${c.router}-${c.host}-${i}`}
              columns={columns}
              empty={<EmptyState icon="checkCircle" title={t('conflicts.emptyTitle')}>
                  {t('conflicts.emptyBody')}
                </EmptyState>}
            />
          </Card>
        ) : null}
      </div>
    </>
  );
}
