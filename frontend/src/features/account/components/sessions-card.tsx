import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('account');
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
      header: t('sessions.device'),
      cell: (s) => (
        <div className="row">
          <strong title={s.userAgent || undefined}>{describeUserAgent(s.userAgent)}</strong>
          {s.current ? <Badge tone="success" icon="check">{t('sessions.thisDevice')}</Badge> : null}
        </div>
      ),
    },
    { id: 'address', header: t('sessions.address'), className: 'mono small', style: { overflowWrap: 'anywhere' }, cell: (s) => s.address || '—' },
    { id: 'signedIn', header: t('sessions.signedIn'), className: 'small nowrap', cell: (s) => formatDateTime(s.createdAt) },
    {
      id: 'lastSeen',
      header: t('sessions.lastSeen'),
      className: 'small nowrap',
      cellProps: (s) => ({ title: formatDateTime(s.lastSeenAt) }),
      cell: (s) => (s.current ? t('sessions.now') : formatRelative(s.lastSeenAt, now)),
    },
    actionsColumn((s) =>
      s.current ? null : (
        <Button size="sm" variant="ghost" icon="logout" onClick={() => setEnding(s)} aria-label={
            s.address
              ? t('sessions.signOutLabelAt', { device: describeUserAgent(s.userAgent), address: s.address })
              : t('sessions.signOutLabel', { device: describeUserAgent(s.userAgent) })
          }
        >
          {t('sessions.signOut')}
        </Button>
      ),
    ),
  ];

  return (
    <Card>
      <CardHeader
        title={t('sessions.title')}
        description={t('sessions.description')}
        actions={
          <Button variant="danger" size="sm" icon="logout" disabled={others === 0} onClick={() => setConfirmOthers(true)}>
            {t('sessions.signOutOthers')}
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
            <EmptyState icon="users" title={t('sessions.emptyTitle')}>
              {t('sessions.emptyText')}
            </EmptyState>
          }
        />
      )}
      <ConfirmDialog
        open={!!ending}
        title={t('sessions.endTitle')}
        message={
          !ending
            ? t('sessions.endMessageUnknown')
            : ending.address
              ? t('sessions.endMessageAt', { device: describeUserAgent(ending.userAgent), address: ending.address })
              : t('sessions.endMessage', { device: describeUserAgent(ending.userAgent) })
        }
        confirmLabel={t('sessions.signOut')}
        danger
        loading={endOne.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={() => ending && endOne.mutate(ending.id, { onSettled: () => setEnding(null) })}
      />
      <ConfirmDialog
        open={confirmOthers}
        title={t('sessions.endOthersTitle')}
        message={t('sessions.endOthersMessage', { count: others })}
        confirmLabel={t('sessions.endOthersConfirm')}
        danger
        loading={endOthers.isPending}
        onCancel={() => setConfirmOthers(false)}
        onConfirm={() => endOthers.mutate(undefined, { onSettled: () => setConfirmOthers(false) })}
      />
    </Card>
  );
}
