import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDeleteDialog } from '@/components/ui/confirm-delete-dialog';
import { actionsColumn, type Column } from '@/components/ui/data-table';
import { ListPage, RowActions } from '@/components/ui/list-page';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime } from '@/lib/format';
import i18n from '@/lib/i18n';
import type { Channel, NotificationTestResult } from '@/lib/api-types';
import { DeliveryError } from './delivery-error';
import { CHANNEL_KINDS, EVENT_KINDS, useChannels, useDeleteChannel, useTestChannel } from '../api/notifications';
import { ChannelModal } from './channel-form';
import { NotificationSettingsCard } from './settings-card';

const kindLabel = (k: string) => ((CHANNEL_KINDS as string[]).includes(k) ? i18n.t(`notifications:kinds.${k as (typeof CHANNEL_KINDS)[number]}`) : k);
// Deliveries name a few kinds no channel picks: the test, Traefik polling again (sent to the
// channels that picked "stopped") and an alert resolved (to those that picked "alert firing").
const OTHER_EVENTS = ['test', 'polling_resumed', 'alert_resolved'] as const;
const eventLabel = (k: string) =>
  (OTHER_EVENTS as readonly string[]).includes(k)
    ? i18n.t(`notifications:otherEvents.${k as (typeof OTHER_EVENTS)[number]}`)
    : (EVENT_KINDS as string[]).includes(k)
      ? i18n.t(`notifications:events.${k as (typeof EVENT_KINDS)[number]}`)
      : k;

export function NotificationsPage() {
  const { t } = useTranslation(['notifications', 'common']);
  const canWrite = useCanWrite();
  const channels = useChannels();
  const del = useDeleteChannel();
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const list = channels.data ?? [];
  const test = useTestChannel();
  // The last test's answer per channel, shown under its last delivery.
  const [results, setResults] = useState<Record<string, NotificationTestResult>>({});
  const send = async (c: Channel) => {
    setResults(({ [c.id]: _, ...rest }) => rest);
    try {
      const r = await test.mutateAsync(c.id);
      setResults((all) => ({ ...all, [c.id]: r }));
    } catch {
      // The error toast says why.
    }
  };
  const columns: Column<Channel>[] = [
    {
      id: 'name',
      header: t('common:words.name'),
      sortValue: (c) => c.name,
      cell: (c) => (
        <>
          <strong>{c.name}</strong>
          {!c.enabled ? (
            <>
              {' '}
              <Badge>{t('common:words.off')}</Badge>
            </>
          ) : null}
        </>
      ),
    },
    { id: 'kind', header: t('list.service'), sortValue: (c) => kindLabel(c.kind), cell: (c) => kindLabel(c.kind) },
    {
      id: 'events',
      header: t('list.events'),
      className: 'small',
      cell: (c) => (c.events.length === 0 ? <span className="muted">{t('common:words.none')}</span> : c.events.map(eventLabel).join(', ')),
    },
    {
      id: 'lastDelivery',
      header: t('list.lastDelivery'),
      className: 'small',
      cell: (c) => {
        const ld = c.lastDelivery;
        const result = results[c.id];
        return (
          <>
            {ld ? (
              <div className="stack-sm">
                <span>
                  <Badge tone={ld.ok ? 'success' : 'danger'} icon={ld.ok ? 'checkCircle' : 'xCircle'}>{ld.ok ? t('list.delivered') : t('list.failed')}</Badge>{' '}
                  <span className="muted">{eventLabel(ld.event)} · {formatDateTime(ld.at)}</span>
                </span>
                {/* After a test the delivery is the test: its error is said once, below. */}
                {ld.error && !result ? <DeliveryError error={ld.error} kind={c.kind} /> : null}
              </div>
            ) : (
              <span className="muted">{t('list.nothingSent')}</span>
            )}
            {result ? (
              <div role="status" className="small">
                {result.ok ? (
                  t('list.testSent')
                ) : (
                  <DeliveryError error={result.error || t('list.unknownError')} kind={c.kind} lead={t('list.testNotDelivered')} />
                )}
              </div>
            ) : null}
          </>
        );
      },
    },
    actionsColumn((c) =>
      canWrite ? (
        <RowActions edit={{ label: t('list.edit', { name: c.name }), onClick: () => setEditing(c) }} remove={{ label: t('list.delete', { name: c.name }), onClick: () => setDeleting(c) }}>
          <Button size="sm" icon="play" loading={test.isPending && test.variables === c.id} onClick={() => void send(c)} aria-label={t('list.sendTestTo', { name: c.name })}>
            {t('list.sendTest')}
          </Button>
        </RowActions>
      ) : null,
    ),
  ];
  return (
    <>
      <ListPage
        title={t('page.title')}
        description={t('page.description')}
        create={canWrite ? { label: t('page.new'), emptyLabel: t('page.add'), onClick: () => setEditing('new') } : undefined}
        query={channels}
        table={{ data: list, rowKey: (c) => c.id, columns, label: t('page.channels') }}
        emptyIcon="bell"
        emptyTitle={t('page.empty')}
        emptyText={t('page.emptyText')}
      >
        <NotificationSettingsCard />
      </ListPage>
      <ChannelModal open={editing !== null} channel={editing === 'new' || editing === null ? undefined : editing} onClose={() => setEditing(null)} />
      <ConfirmDeleteDialog
        item={deleting}
        title={t('page.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('page.deleteMessage')}
        loading={del.isPending}
        onDelete={(c) => del.mutateAsync(c.id)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
