import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { CredentialSet } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime } from '@/lib/format';
import { useCredentialSets, useDeleteCredentialSet } from '../api/credential-sets';
import { CredentialSetModal } from './credential-set-form';

export function CredentialSetsPage() {
  const { t } = useTranslation(['forward-auth', 'common']);
  const canWrite = useCanWrite();
  const sets = useCredentialSets();
  const del = useDeleteCredentialSet();
  const [editing, setEditing] = useState<CredentialSet | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CredentialSet | null>(null);
  const list = sets.data ?? [];
  const columns: Column<CredentialSet>[] = [
    { id: 'name', header: t('setsPage.columns.name'), sortValue: (s) => s.name, cell: (s) => <strong>{s.name}</strong> },
    {
      id: 'users',
      header: t('setsPage.columns.users'),
      sortValue: (s) => s.users.length,
      cell: (s) => (
        <div className="chip-list">
          {s.users.slice(0, 6).map((u) => (
            <span key={u.username} className="tag" style={{ paddingRight: 8 }}>{u.username}</span>
          ))}
          {s.users.length > 6 ? <span className="small muted">{t('common:list.more', { count: s.users.length - 6 })}</span> : null}
        </div>
      ),
    },
    { id: 'updated', header: t('setsPage.columns.updated'), className: 'muted small nowrap', sortValue: (s) => Date.parse(s.updatedAt), cell: (s) => formatDateTime(s.updatedAt) },
    actionsColumn((s) =>
      canWrite ? (
        <>
          <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(s)} aria-label={t('setsPage.editLabel', { name: s.name })}>{t('common:actions.edit')}</Button>
          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(s)} aria-label={t('setsPage.deleteLabel', { name: s.name })} title={t('common:actions.delete')} />
        </>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title={t('setsPage.title')}
        description={t('setsPage.description')}
        actions={canWrite ? <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>{t('setsPage.new')}</Button> : null}
      />
      {sets.isError ? <ErrorState error={sets.error} onRetry={() => sets.refetch()} /> : null}
      <Card>
        {sets.isPending ? (
          <LoadingRows />
        ) : (
          <DataTable
            data={list}
            rowKey={(s) => s.id}
            columns={columns}
            empty={
              sets.isError ? undefined : (
                <EmptyState icon="key" title={t('setsPage.emptyTitle')} action={canWrite ? <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>{t('setsPage.createFirst')}</Button> : undefined}>
                  {t('setsPage.emptyBody')}
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <CredentialSetModal open={editing !== null} set={editing && editing !== 'new' ? editing : undefined} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={!!deleting}
        title={t('setsPage.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('setsPage.deleteMessage')}
        confirmLabel={t('setsPage.deleteConfirm')}
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
