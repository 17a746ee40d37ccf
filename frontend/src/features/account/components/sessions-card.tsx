import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { AdminSession } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { useEndMySession, useEndOtherSessions, useMySessions } from '../api/account';
import { describeUserAgent } from './user-agent';

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
      ) : list.length === 0 ? (
        <EmptyState icon="users" title="No sessions">
          Sessions appear here when you sign in from a browser.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table stacked">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col" className="actions"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => {
                const device = describeUserAgent(s.userAgent);
                return (
                  <tr key={s.id}>
                    <td>
                      <div className="row">
                        <strong title={s.userAgent || undefined}>{device}</strong>
                        {s.current ? <Badge tone="success" icon="check">This device</Badge> : null}
                      </div>
                    </td>
                    <td className="mono small" style={{ overflowWrap: 'anywhere' }} data-label="Address">{s.address || '—'}</td>
                    <td className="small nowrap" data-label="Signed in">{formatDateTime(s.createdAt)}</td>
                    <td className="small nowrap" title={formatDateTime(s.lastSeenAt)} data-label="Last seen">
                      {s.current ? 'Now' : formatRelative(s.lastSeenAt, now)}
                    </td>
                    <td className="actions">
                      {s.current ? null : (
                        <Button size="sm" variant="ghost" icon="logout" onClick={() => setEnding(s)} aria-label={`Sign out ${device}${s.address ? ` at ${s.address}` : ''}`}>
                          Sign out
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
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
