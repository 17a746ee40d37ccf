import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation(['people', 'common']);
  const sessions = usePersonSessions(target?.id ?? null);
  const end = useEndPersonSession();
  const columns: Column<PersonSession>[] = [
    {
      id: 'where',
      header: t('sessions.where'),
      className: 'small nowrap',
      cell: (s) => (s.portal ? <Badge tone="info">{t('sessions.portal')}</Badge> : <Badge>{t('sessions.panel')}</Badge>),
    },
    { id: 'device', header: t('sessions.browser'), className: 'small', style: { overflowWrap: 'anywhere' }, cell: (s) => s.userAgent || t('sessions.unknownBrowser') },
    { id: 'address', header: t('sessions.address'), className: 'mono small', cell: (s) => s.address || '—' },
    { id: 'signedIn', header: t('sessions.signedIn'), className: 'small nowrap', cell: (s) => formatDateTime(s.createdAt) },
    { id: 'lastSeen', header: t('sessions.lastSeen'), className: 'small nowrap', cell: (s) => formatRelative(s.lastSeenAt) },
    actionsColumn(
      (s) => (
        <Button
          size="sm"
          variant="ghost"
          icon="logout"
          loading={end.isPending && end.variables?.sessionId === s.id}
          onClick={() => target && end.mutate({ id: target.id, sessionId: s.id }, { onSuccess: () => sessions.refetch() })}
          aria-label={s.address ? t('sessions.signOutFrom', { address: s.address }) : t('sessions.signOutUnknown')}
        >
          {t('common:actions.signOut')}
        </Button>
      ),
      { hidden: !canWrite },
    ),
  ];
  return (
    <Modal open={!!target} onClose={onClose} size="lg" title={t('sessions.title', { name: target?.username ?? '' })} description={t('sessions.description')}>
      <h3 className="label">{t('sessions.onPanel')}</h3>
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
            <EmptyState icon="users" title={t('sessions.none')}>
              {t('sessions.nonePanel')}
            </EmptyState>
          }
        />
      )}
      <h3 className="label" style={{ marginTop: 16 }}>
        {t('sessions.onServices')}
      </h3>
      <ServiceSessions target={target} canWrite={canWrite} />
      <h3 className="label" style={{ marginTop: 16 }}>
        {t('sessions.appPasswords')}
      </h3>
      <PersonAppPasswords target={target} canWrite={canWrite} />
    </Modal>
  );
}

/** The person's single sign-on sessions on the proxied services. */
function ServiceSessions({ target, canWrite }: { target: Person | null; canWrite: boolean }) {
  const { t } = useTranslation(['people', 'common']);
  const sessions = usePersonServiceSessions(target?.id ?? null);
  const end = useEndPersonServiceSession();
  const columns: Column<Session>[] = [
    { id: 'service', header: t('sessions.service'), cell: (s) => <strong>{s.serviceName}</strong> },
    { id: 'signedIn', header: t('sessions.signedIn'), className: 'small nowrap', cell: (s) => formatDateTime(s.createdAt) },
    { id: 'lastSeen', header: t('sessions.lastSeen'), className: 'small nowrap', cell: (s) => formatRelative(s.lastSeenAt) },
    actionsColumn(
      (s) => (
        <Button
          size="sm"
          variant="ghost"
          icon="logout"
          loading={end.isPending && end.variables?.sessionId === s.id}
          onClick={() => target && end.mutate({ id: target.id, sessionId: s.id }, { onSuccess: () => sessions.refetch() })}
          aria-label={t('sessions.signOutOf', { name: s.serviceName })}
        >
          {t('common:actions.signOut')}
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
        <EmptyState icon="users" title={t('sessions.none')}>
          {t('sessions.noneServices')}
        </EmptyState>
      }
    />
  );
}
