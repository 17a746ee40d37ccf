import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { Session } from '@/lib/api-types';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useDeleteAllSessions, useDeleteSession, useSessions } from '../api/sessions';

export function SessionsPage() {
  const canWrite = useCanWrite();
  const sessions = useSessions();
  const delOne = useDeleteSession();
  const delAll = useDeleteAllSessions();
  const [confirmAll, setConfirmAll] = useState(false);
  const [ending, setEnding] = useState<Session | null>(null);
  const list = sessions.data ?? [];
  const time = (iso: string) => Date.parse(iso);
  const columns: Column<Session>[] = [
    {
      id: 'who',
      header: 'Who',
      sortValue: (s) => s.name || s.user,
      cell: (s) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <strong>{s.name || s.user || (s.kind === 'shared_link' ? 'Shared link visitor' : 'Unknown')}</strong>
          {s.email && s.email !== (s.name || s.user) ? <span className="small muted">{s.email}</span> : null}
          {s.groups?.length ? <span className="small faint">{s.groups.join(', ')}</span> : null}
        </div>
      ),
    },
    {
      id: 'service',
      header: 'Service',
      sortValue: (s) => s.serviceName || s.serviceId,
      cell: (s) => <Link to={`/services/${s.serviceId}/security`}>{s.serviceName || s.serviceId}</Link>,
    },
    {
      id: 'via',
      header: 'Via',
      cell: (s) =>
        s.kind === 'sso' ? (
          <Badge tone="info" icon="users">SSO</Badge>
        ) : s.kind === 'email_code' ? (
          <Badge tone="info" icon="mail">E-mail code</Badge>
        ) : (
          <Badge tone="primary" icon="link">Shared link</Badge>
        ),
    },
    {
      id: 'started',
      header: 'Started',
      className: 'small nowrap',
      cellProps: (s) => ({ title: formatDateTime(s.createdAt) }),
      sortValue: (s) => time(s.createdAt),
      cell: (s) => formatRelative(s.createdAt),
    },
    {
      id: 'lastSeen',
      header: 'Last seen',
      className: 'small nowrap',
      cellProps: (s) => ({ title: formatDateTime(s.lastSeenAt) }),
      sortValue: (s) => time(s.lastSeenAt),
      cell: (s) => formatRelative(s.lastSeenAt),
    },
    {
      id: 'expires',
      header: 'Expires',
      className: 'small nowrap',
      cellProps: (s) => ({ title: formatDateTime(s.expiresAt) }),
      sortValue: (s) => time(s.expiresAt),
      cell: (s) => formatRelative(s.expiresAt),
    },
    actionsColumn((s) =>
      canWrite ? (
        <Button size="sm" variant="ghost" icon="x" onClick={() => setEnding(s)} aria-label={`End session of ${s.user || 'visitor'} on ${s.serviceName}`}>
          End
        </Button>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title="Sessions"
        description="People signed in to protected services through single sign-on or a shared link."
        actions={
          canWrite ? (
            <Button variant="danger" icon="logout" disabled={list.length === 0} onClick={() => setConfirmAll(true)}>
              End all sessions
            </Button>
          ) : null
        }
      />
      {sessions.isError ? <ErrorState error={sessions.error} onRetry={() => sessions.refetch()} /> : null}
      <Card>
        {sessions.isPending ? (
          <LoadingRows />
        ) : (
          <DataTable
            data={list}
            rowKey={(s) => s.id}
            columns={columns}
            empty={
              sessions.isError ? undefined : (
                <EmptyState icon="users" title="No active sessions">
                  When someone signs in to a protected service, or opens a shared link, their session appears here.
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <ConfirmDialog
        open={!!ending}
        title="End this session?"
        message={`${ending?.user || 'The visitor'} will have to sign in again to reach ${ending?.serviceName ?? 'the service'}.`}
        confirmLabel="End session"
        danger
        loading={delOne.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={() => ending && delOne.mutate(ending.id, { onSettled: () => setEnding(null) })}
      />
      <ConfirmDialog
        open={confirmAll}
        title="End all sessions?"
        message={`Everyone (${list.length} session${list.length === 1 ? '' : 's'}) will have to sign in again. Shared links that were already used cannot be reused.`}
        confirmLabel="End all"
        danger
        loading={delAll.isPending}
        onCancel={() => setConfirmAll(false)}
        onConfirm={() => delAll.mutate(undefined, { onSettled: () => setConfirmAll(false) })}
      />
    </>
  );
}
