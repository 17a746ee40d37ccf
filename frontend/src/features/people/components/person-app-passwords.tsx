import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { AppPassword, Person } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { usePersonAppPasswords, useRevokePersonAppPassword } from '../api/people';

/** A person's app passwords (never their secrets), each with "Revoke" for those who may write. */
export function PersonAppPasswords({ target, canWrite }: { target: Person | null; canWrite: boolean }) {
  const { t } = useTranslation(['people', 'common']);
  const list = usePersonAppPasswords(target?.id ?? null);
  const revoke = useRevokePersonAppPassword();
  const columns: Column<AppPassword>[] = [
    { id: 'name', header: t('common:words.name'), cell: (p) => <strong>{p.name}</strong> },
    { id: 'created', header: t('appPasswords.created'), className: 'small nowrap', cell: (p) => formatDateTime(p.createdAt) },
    { id: 'lastUsed', header: t('appPasswords.lastUsed'), className: 'small nowrap', cell: (p) => (p.lastUsedAt ? formatRelative(p.lastUsedAt) : t('common:words.never')) },
    actionsColumn(
      (p) => (
        <Button
          size="sm"
          variant="ghost"
          icon="trash"
          loading={revoke.isPending && revoke.variables?.passwordId === p.id}
          onClick={() => target && revoke.mutate({ id: target.id, passwordId: p.id })}
          aria-label={t('appPasswords.revokeNamed', { name: p.name })}
        >
          {t('appPasswords.revoke')}
        </Button>
      ),
      { hidden: !canWrite },
    ),
  ];
  if (list.isError) return <ErrorState error={list.error} onRetry={() => list.refetch()} />;
  if (list.isPending) return <LoadingRows rows={1} />;
  return (
    <DataTable
      data={list.data}
      rowKey={(p) => p.id}
      columns={columns}
      empty={
        <EmptyState icon="key" title={t('appPasswords.none')}>
          {t('appPasswords.noneText')}
        </EmptyState>
      }
    />
  );
}
