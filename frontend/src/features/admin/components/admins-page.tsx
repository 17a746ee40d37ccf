import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { useCanWrite, useMe } from '@/lib/api/system';
import type { AdminAccount, AdminRole } from '@/lib/api-types';
import { asSentence, formatDateTime, formatRelative } from '@/lib/format';
import { useAdmins, useDeleteAdmin, useUpdateAdmin } from '../api/admins';
import { CreateAdminDialog, ResetPasswordDialog, roleChoices } from './admin-dialogs';

export function AdminsPage() {
  const admins = useAdmins();
  const me = useMe();
  const canWrite = useCanWrite();
  const update = useUpdateAdmin();
  const del = useDeleteAdmin();
  const [creating, setCreating] = useState(false);
  const [resetting, setResetting] = useState<AdminAccount | null>(null);
  const [disabling, setDisabling] = useState<AdminAccount | null>(null);
  const [deleting, setDeleting] = useState<AdminAccount | null>(null);
  // The server's refusal (the last active admin, for one), shown as it words it.
  const [refusal, setRefusal] = useState<string | null>(null);
  const myId = me.data?.user.id;
  const list = admins.data ?? [];

  const change = (a: AdminAccount, body: { role?: AdminRole; disabled?: boolean }) => {
    setRefusal(null);
    update.mutate({ id: a.id, ...body }, { onError: (e) => setRefusal(asSentence(errorMessage(e))), onSettled: () => setDisabling(null) });
  };

  const columns: Column<AdminAccount>[] = [
    {
      id: 'username',
      header: 'Username',
      sortValue: (a) => a.username,
      cell: (a) => (
        <>
          <strong>{a.username}</strong> {a.id === myId ? <span className="small muted">(you)</span> : null}
        </>
      ),
    },
    {
      id: 'role',
      header: 'Role',
      cell: (a) =>
        canWrite ? (
          <select
            className="select"
            style={{ width: 130 }}
            aria-label={`Role of ${a.username}`}
            value={a.role}
            disabled={update.isPending}
            onChange={(e) => change(a, { role: e.target.value as AdminRole })}
          >
            {roleChoices.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        ) : (
          <Badge tone={a.role === 'admin' ? 'primary' : 'neutral'}>{a.role === 'admin' ? 'Admin' : 'Viewer'}</Badge>
        ),
    },
    { id: 'status', header: 'Status', cell: (a) => (a.disabled ? <Badge tone="danger">Disabled</Badge> : <Badge tone="success">Active</Badge>) },
    {
      id: 'lastSignIn',
      header: 'Last sign-in',
      className: 'small',
      sortValue: (a) => (a.lastSignInAt ? Date.parse(a.lastSignInAt) : null),
      cell: (a) => (a.lastSignInAt ? <span title={formatDateTime(a.lastSignInAt)}>{formatRelative(a.lastSignInAt)}</span> : <span className="faint">none open</span>),
    },
    {
      id: 'added',
      header: 'Added',
      className: 'small nowrap',
      cellProps: (a) => ({ title: formatDateTime(a.createdAt) }),
      sortValue: (a) => Date.parse(a.createdAt),
      cell: (a) => formatRelative(a.createdAt),
    },
    actionsColumn(
      (a) => (
        <>
          {a.disabled ? (
            <Button size="sm" variant="ghost" icon="power" onClick={() => change(a, { disabled: false })} aria-label={`Enable ${a.username}`}>
              Enable
            </Button>
          ) : (
            <Button size="sm" variant="ghost" icon="pause" onClick={() => setDisabling(a)} aria-label={`Disable ${a.username}`}>
              Disable
            </Button>
          )}
          <Button size="sm" variant="ghost" icon="lock" onClick={() => setResetting(a)} aria-label={`Set password of ${a.username}`}>
            Password
          </Button>
          <Button size="sm" variant="ghost" icon="trash" iconOnly onClick={() => setDeleting(a)} aria-label={`Remove ${a.username}`} title="Remove" />
        </>
      ),
      { hidden: !canWrite },
    ),
  ];

  return (
    <>
      <PageHeader
        title="Administrators"
        description="People who sign in to this panel. Admins can change everything; viewers can look at everything except pages that show secrets, and change nothing."
        actions={
          canWrite ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              Add administrator
            </Button>
          ) : null
        }
      />
      {refusal ? (
        <div style={{ marginBottom: 16 }}>
          <Alert tone="danger" title="Not changed">
            {refusal}
          </Alert>
        </div>
      ) : null}
      {admins.isError ? <ErrorState error={admins.error} onRetry={() => admins.refetch()} /> : null}
      <Card>
        {admins.isPending ? (
          <LoadingRows />
        ) : (
          <DataTable
            data={list}
            rowKey={(a) => a.id}
            columns={columns}
            empty={
              admins.isError ? undefined : (
                <EmptyState icon="user" title="No administrators">
                  Administrators appear here once added.
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <CreateAdminDialog open={creating} onClose={() => setCreating(false)} />
      <ResetPasswordDialog target={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        open={!!disabling}
        title={`Disable ${disabling?.username ?? 'this administrator'}?`}
        message="They are signed out everywhere and cannot sign in until enabled again. Their API tokens stop working."
        confirmLabel="Disable"
        danger
        loading={update.isPending}
        onCancel={() => setDisabling(null)}
        onConfirm={() => disabling && change(disabling, { disabled: true })}
      />
      <ConfirmDialog
        open={!!deleting}
        title={`Remove ${deleting?.username ?? 'this administrator'}?`}
        message="Their sessions and API tokens go with them. This cannot be undone."
        confirmLabel="Remove administrator"
        danger
        loading={del.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          setRefusal(null);
          del.mutate(deleting.id, { onError: (e) => setRefusal(asSentence(errorMessage(e))), onSettled: () => setDeleting(null) });
        }}
      />
    </>
  );
}
