import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { AdminSession } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { useEndMySession, useEndOtherSessions, useMySessions } from '../api/account';
import { describeUserAgent } from '@/lib/user-agent';

export function SessionsCard() {
  const sessions = useMySessions();
  const endOne = useEndMySession();
  const endOthers = useEndOtherSessions();
  const now = useNow(30_000);
  const [ending, setEnding] = useState<AdminSession | null>(null);
  const [confirmOthers, setConfirmOthers] = useState(false);
  // This device first, the others newest first as the server sends them.
  const list = [...(sessions.data ?? [])].sort((a, b) => Number(b.current) - Number(a.current));
  const others = list.filter((s) => !s.current).length;
  const columns: Column<AdminSession>[] = [
    {
      id: 'device',
      header: 'Device',
      cell: (s) => (
        <div className="row">
          <strong title={s.userAgent || undefined}>{describeUserAgent(s.userAgent)}</strong>
          {s.current ? <Badge tone="success" icon="check">This device</Badge> : null}
        </div>
      ),
    },
    { id: 'address', header: 'Address', className: 'mono small', style: { overflowWrap: 'anywhere' }, cell: (s) => s.address || '—' },
    { id: 'signedIn', header: 'Signed in', className: 'small nowrap', cell: (s) => formatDateTime(s.createdAt) },
    {
      id: 'lastSeen',
      header: 'Last seen',
      className: 'small nowrap',
      cellProps: (s) => ({ title: formatDateTime(s.lastSeenAt) }),
      cell: (s) => (s.current ? 'Now' : formatRelative(s.lastSeenAt, now)),
    },
    actionsColumn((s) =>
      s.current ? null : (
        <Button size="sm" variant="ghost" icon="logout" onClick={() => setEnding(s)} aria-label={`Sign out ${describeUserAgent(s.userAgent)}${s.address ? ` at ${s.address}` : ''}`}>
          Sign out
        </Button>
      ),
    ),
  ];

  return (
    <Card>
      <CardHeader
        title="Signed-in sessions"
        description="Where this account is signed in to the panel."
        actions={
          <Button variant="danger" size="sm" icon="logout" disabled={others === 0} onClick={() => setConfirmOthers(true)}>
            Sign out all other sessions
          </Button>
        }
      />
      {sessions.isError ? (
        <div className="card-body">
          <ErrorState error={sessions.error} onRetry={() => sessions.refetch()} />
        </div>
      ) : sessions.isPending ? (
        <LoadingRows rows={3} />
      ) : (
        <DataTable
          data={list}
          rowKey={(s) => s.id}
          columns={columns}
          empty={
            <EmptyState icon="users" title="No sessions">
              Sessions appear here when you sign in from a browser.
            </EmptyState>
          }
        />
      )}
      <ConfirmDialog
        open={!!ending}
        title="Sign out this session?"
        message={`${ending ? describeUserAgent(ending.userAgent) : 'That device'}${ending?.address ? ` at ${ending.address}` : ''} will have to sign in again.`}
        confirmLabel="Sign out"
        danger
        loading={endOne.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={() => ending && endOne.mutate(ending.id, { onSettled: () => setEnding(null) })}
      />
      <ConfirmDialog
        open={confirmOthers}
        title="Sign out all other sessions?"
        message={`${others} other session${others === 1 ? '' : 's'} will have to sign in again. This device stays signed in.`}
        confirmLabel="Sign out others"
        danger
        loading={endOthers.isPending}
        onCancel={() => setConfirmOthers(false)}
        onConfirm={() => endOthers.mutate(undefined, { onSettled: () => setConfirmOthers(false) })}
      />
    </Card>
  );
}
