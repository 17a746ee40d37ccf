import { Button } from '@/components/ui/button';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { Modal } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import type { Person, PersonSession } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useEndPersonSession, usePersonSessions } from '../api/people';

/** A person's live sessions, each with "Sign out" for those who may write. */
export function PersonSessionsDialog({ target, canWrite, onClose }: { target: Person | null; canWrite: boolean; onClose: () => void }) {
  const sessions = usePersonSessions(target?.id ?? null);
  const end = useEndPersonSession();
  const columns: Column<PersonSession>[] = [
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
    <Modal open={!!target} onClose={onClose} size="lg" title={`Sessions of ${target?.username ?? ''}`} description="Where this person is signed in to the panel.">
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
              They are not signed in anywhere.
            </EmptyState>
          }
        />
      )}
    </Modal>
  );
}
