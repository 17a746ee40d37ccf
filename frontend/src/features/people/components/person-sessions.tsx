import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Modal } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { Person, PersonSession, Session } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { PersonAppPasswords } from './person-app-passwords';
import { useEndPersonServiceSession, useEndPersonSession, usePersonServiceSessions, usePersonSessions } from '../api/people';

/** A person's live sessions, each with "Sign out" for those who may write. */
export function PersonSessionsDialog({ target, canWrite, onClose }: { target: Person | null; canWrite: boolean; onClose: () => void }) {
  const sessions = usePersonSessions(target?.id ?? null);
  const end = useEndPersonSession();
  const columns: Column<PersonSession>[] = [
    { id: 'where', header: 'Where', className: 'small nowrap', cell: (s) => (s.portal ? <Badge tone="info">Portal</Badge> : <Badge>Panel</Badge>) },
    { id: 'device', header: 'Browser', className: 'small', style: { overflowWrap: 'anywhere' }, cell: (s) => s.userAgent || 'Unknown browser' },
    { id: 'address', header: 'Address', className: 'mono small', cell: (s) => s.address || '—' },
    { id: 'signedIn', header: 'Signed in', className: 'small nowrap', cell: (s) => formatDateTime(s.createdAt) },
    { id: 'lastSeen', header: 'Last seen', className: 'small nowrap', cell: (s) => formatRelative(s.lastSeenAt) },
    actionsColumn(
      (s) => (
        <Button
          size="sm"
          variant="ghost"
          icon="logout"
          loading={end.isPending && end.variables?.sessionId === s.id}
          onClick={() => target && end.mutate({ id: target.id, sessionId: s.id }, { onSuccess: () => sessions.refetch() })}
          aria-label={`Sign out the session from ${s.address || 'an unknown address'}`}
        >
          Sign out
        </Button>
      ),
      { hidden: !canWrite },
    ),
  ];
  return (
    <Modal open={!!target} onClose={onClose} size="lg" title={`Sessions of ${target?.username ?? ''}`} description="Where this person is signed in: the panel and the services.">
      <h3 className="label">On the panel and the sign-in portal</h3>
      {sessions.isError ? (
        <ErrorState error={sessions.error} onRetry={() => sessions.refetch()} />
      ) : sessions.isPending ? (
        <LoadingRows rows={2} />
      ) : (
        <DataTable
          data={sessions.data}
          rowKey={(s) => s.id}
          columns={columns}
          empty={
            <EmptyState icon="users" title="No sessions">
              They are not signed in to the panel or the portal.
            </EmptyState>
          }
        />
      )}
      <h3 className="label" style={{ marginTop: 16 }}>
        On services (single sign-on)
      </h3>
      <ServiceSessions target={target} canWrite={canWrite} />
      <h3 className="label" style={{ marginTop: 16 }}>
        App passwords
      </h3>
      <PersonAppPasswords target={target} canWrite={canWrite} />
    </Modal>
  );
}

/** The person's single sign-on sessions on the proxied services. */
function ServiceSessions({ target, canWrite }: { target: Person | null; canWrite: boolean }) {
  const sessions = usePersonServiceSessions(target?.id ?? null);
  const end = useEndPersonServiceSession();
  const columns: Column<Session>[] = [
    { id: 'service', header: 'Service', cell: (s) => <strong>{s.serviceName}</strong> },
    { id: 'signedIn', header: 'Signed in', className: 'small nowrap', cell: (s) => formatDateTime(s.createdAt) },
    { id: 'lastSeen', header: 'Last seen', className: 'small nowrap', cell: (s) => formatRelative(s.lastSeenAt) },
    actionsColumn(
      (s) => (
        <Button
          size="sm"
          variant="ghost"
          icon="logout"
          loading={end.isPending && end.variables?.sessionId === s.id}
          onClick={() => target && end.mutate({ id: target.id, sessionId: s.id }, { onSuccess: () => sessions.refetch() })}
          aria-label={`Sign out of ${s.serviceName}`}
        >
          Sign out
        </Button>
      ),
      { hidden: !canWrite },
    ),
  ];
  if (sessions.isError) return <ErrorState error={sessions.error} onRetry={() => sessions.refetch()} />;
  if (sessions.isPending) return <LoadingRows rows={1} />;
  return (
    <DataTable
      data={sessions.data}
      rowKey={(s) => s.id}
      columns={columns}
      empty={
        <EmptyState icon="users" title="No sessions">
          Not signed in to any service with single sign-on.
        </EmptyState>
      }
    />
  );
}
