import { useState } from 'react';
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
  const canWrite = useCanWrite();
  const sets = useCredentialSets();
  const del = useDeleteCredentialSet();
  const [editing, setEditing] = useState<CredentialSet | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CredentialSet | null>(null);
  const list = sets.data ?? [];
  const columns: Column<CredentialSet>[] = [
    { id: 'name', header: 'Name', sortValue: (s) => s.name, cell: (s) => <strong>{s.name}</strong> },
    {
      id: 'users',
      header: 'Users',
      sortValue: (s) => s.users.length,
      cell: (s) => (
        <div className="chip-list">
          {s.users.slice(0, 6).map((u) => (
            <span key={u.username} className="tag" style={{ paddingRight: 8 }}>{u.username}</span>
          ))}
          {s.users.length > 6 ? <span className="small muted">and {s.users.length - 6} more</span> : null}
        </div>
      ),
    },
    { id: 'updated', header: 'Updated', className: 'muted small nowrap', sortValue: (s) => Date.parse(s.updatedAt), cell: (s) => formatDateTime(s.updatedAt) },
    actionsColumn((s) =>
      canWrite ? (
        <>
          <Button size="sm" variant="ghost" icon="edit" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>Edit</Button>
          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(s)} aria-label={`Delete ${s.name}`} title="Delete" />
        </>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title="Credential sets"
        description="Username/password lists for HTTP basic authentication. One set can protect many services."
        actions={canWrite ? <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>New set</Button> : null}
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
                <EmptyState icon="key" title="No credential sets" action={canWrite ? <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>Create a set</Button> : undefined}>
                  Create a set of users, then turn on basic auth for a service and pick the set.
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <CredentialSetModal open={editing !== null} set={editing && editing !== 'new' ? editing : undefined} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={!!deleting}
        title={`Delete ${deleting?.name ?? ''}?`}
        message="Services that use this set for basic auth must be switched to another set first."
        confirmLabel="Delete set"
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && del.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
