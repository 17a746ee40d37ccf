import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation(['forward-auth', 'common']);
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
      header: t('sessions.columns.who'),
      sortValue: (s) => s.name || s.user,
      cell: (s) => (
        <div className="stack-sm" style={{ gap: 0 }}>
          <strong>{s.name || s.user || (s.kind === 'shared_link' ? t('sessions.linkVisitor') : t('common:words.unknown'))}</strong>
          {s.email && s.email !== (s.name || s.user) ? <span className="small muted">{s.email}</span> : null}
          {s.groups?.length ? <span className="small faint">{s.groups.join(', ')}</span> : null}
        </div>
      ),
    },
    {
      id: 'service',
      header: t('sessions.columns.service'),
      sortValue: (s) => s.serviceName || s.serviceId,
      cell: (s) => <Link to={`/services/${s.serviceId}/security`}>{s.serviceName || s.serviceId}</Link>,
    },
    {
      id: 'via',
      header: t('sessions.columns.via'),
      cell: (s) =>
        s.kind === 'sso' ? (
          <Badge tone="info" icon="users">{t('sessions.via.sso')}</Badge>
        ) : s.kind === 'email_code' ? (
          <Badge tone="info" icon="mail">{t('sessions.via.emailCode')}</Badge>
        ) : (
          <Badge tone="primary" icon="link">{t('sessions.via.sharedLink')}</Badge>
        ),
    },
    {
      id: 'started',
      header: t('sessions.columns.started'),
      className: 'small nowrap',
      cellProps: (s) => ({ title: formatDateTime(s.createdAt) }),
      sortValue: (s) => time(s.createdAt),
      cell: (s) => formatRelative(s.createdAt),
    },
    {
      id: 'lastSeen',
      header: t('sessions.columns.lastSeen'),
      className: 'small nowrap',
      cellProps: (s) => ({ title: formatDateTime(s.lastSeenAt) }),
      sortValue: (s) => time(s.lastSeenAt),
      cell: (s) => formatRelative(s.lastSeenAt),
    },
    {
      id: 'expires',
      header: t('sessions.columns.expires'),
      className: 'small nowrap',
      cellProps: (s) => ({ title: formatDateTime(s.expiresAt) }),
      sortValue: (s) => time(s.expiresAt),
      cell: (s) => formatRelative(s.expiresAt),
    },
    actionsColumn((s) =>
      canWrite ? (
        <Button size="sm" variant="ghost" icon="x" onClick={() => setEnding(s)} aria-label={t('sessions.endLabel', { user: s.user || t('sessions.visitor'), service: s.serviceName })}>
          {t('sessions.end')}
        </Button>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title={t('sessions.title')}
        description={t('sessions.description')}
        actions={
          canWrite ? (
            <Button variant="danger" icon="logout" disabled={list.length === 0} onClick={() => setConfirmAll(true)}>
              {t('sessions.endAll')}
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
                <EmptyState icon="users" title={t('sessions.emptyTitle')}>
                  {t('sessions.emptyBody')}
                </EmptyState>
              )
            }
          />
        )}
      </Card>
      <ConfirmDialog
        open={!!ending}
        title={t('sessions.endOneTitle')}
        message={t('sessions.endOneMessage', { user: ending?.user || t('sessions.theVisitor'), service: ending?.serviceName ?? t('sessions.theService') })}
        confirmLabel={t('sessions.endOneConfirm')}
        danger
        loading={delOne.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={() => ending && delOne.mutate(ending.id, { onSettled: () => setEnding(null) })}
      />
      <ConfirmDialog
        open={confirmAll}
        title={t('sessions.endAllTitle')}
        message={t('sessions.endAllMessage', { count: list.length })}
        confirmLabel={t('sessions.endAllConfirm')}
        danger
        loading={delAll.isPending}
        onCancel={() => setConfirmAll(false)}
        onConfirm={() => delAll.mutate(undefined, { onSettled: () => setConfirmAll(false) })}
      />
    </>
  );
}
