import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { actionsColumn, DataTable, type Column } from '@/components/ui/data-table';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime } from '@/lib/format';
import type { Channel, NotificationTestResult } from '@/lib/api-types';
import { DeliveryError } from './delivery-error';
import { CHANNEL_KINDS, EVENT_KINDS, useChannels, useDeleteChannel, useTestChannel } from '../api/notifications';
import { ChannelModal } from './channel-form';
import { NotificationSettingsCard } from './settings-card';

const kindLabel = (k: string) => CHANNEL_KINDS.find((x) => x.kind === k)?.label ?? k;
// Deliveries name a few kinds no channel picks: the test, and Traefik polling again (sent
// to the channels that picked "stopped").
const OTHER_EVENTS: Record<string, string> = { test: 'Test', polling_resumed: 'Traefik fetches the configuration again' };
const eventLabel = (k: string) => OTHER_EVENTS[k] ?? EVENT_KINDS.find((x) => x.kind === k)?.label ?? k;

export function NotificationsPage() {
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
      header: 'Name',
      sortValue: (c) => c.name,
      cell: (c) => (
        <>
          <strong>{c.name}</strong>
          {!c.enabled ? <> <Badge>Off</Badge></> : null}
        </>
      ),
    },
    { id: 'kind', header: 'Service', sortValue: (c) => kindLabel(c.kind), cell: (c) => kindLabel(c.kind) },
    {
      id: 'events',
      header: 'Events',
      className: 'small',
      cell: (c) => (c.events.length === 0 ? <span className="muted">None</span> : c.events.map(eventLabel).join(', ')),
    },
    {
      id: 'lastDelivery',
      header: 'Last delivery',
      className: 'small',
      cell: (c) => {
        const ld = c.lastDelivery;
        const result = results[c.id];
        return (
          <>
            {ld ? (
              <div className="stack-sm">
                <span>
                  <Badge tone={ld.ok ? 'success' : 'danger'} icon={ld.ok ? 'checkCircle' : 'xCircle'}>{ld.ok ? 'Delivered' : 'Failed'}</Badge>{' '}
                  <span className="muted">{eventLabel(ld.event)} · {formatDateTime(ld.at)}</span>
                </span>
                {/* After a test the delivery is the test: its error is said once, below. */}
                {ld.error && !result ? <DeliveryError error={ld.error} kind={c.kind} /> : null}
              </div>
            ) : (
              <span className="muted">Nothing sent yet</span>
            )}
            {result ? (
              <div role="status" className="small">
                {result.ok ? 'Test message sent.' : <DeliveryError error={result.error || 'unknown error'} kind={c.kind} lead="The test message was not delivered" />}
              </div>
            ) : null}
          </>
        );
      },
    },
    actionsColumn((c) =>
      canWrite ? (
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Button size="sm" icon="play" loading={test.isPending && test.variables === c.id} onClick={() => void send(c)} aria-label={`Send test to ${c.name}`}>
            Send test
          </Button>
          <Button size="sm" variant="ghost" iconOnly icon="edit" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c)} />
          <Button size="sm" variant="ghost" iconOnly icon="trash" aria-label={`Delete ${c.name}`} onClick={() => setDeleting(c)} />
        </div>
      ) : null,
    ),
  ];
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Be told when a certificate is about to expire, a backend goes down, or Traefik rejects a configuration."
        actions={canWrite ? <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>New channel</Button> : null}
      />
      <div className="stack">
        {channels.isError ? <ErrorState error={channels.error} onRetry={() => channels.refetch()} /> : null}
        <Card>
          {channels.isPending ? (
            <LoadingRows />
          ) : (
            <DataTable
              data={list}
              rowKey={(c) => c.id}
              columns={columns}
              label="Notification channels"
              empty={
                channels.isError ? undefined : (
                  <EmptyState
                    icon="bell"
                    title="No notification channels"
                    action={canWrite ? <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>Add a channel</Button> : null}
                  >
                    Add ntfy, Gotify, Discord, Slack, Telegram, e-mail or a webhook, then pick the events it receives.
                  </EmptyState>
                )
              }
            />
          )}
        </Card>
        <NotificationSettingsCard />
      </div>
      <ChannelModal open={editing !== null} channel={editing === 'new' || editing === null ? undefined : editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        message="Its notifications stop at once."
        confirmLabel="Delete"
        danger
        loading={del.isPending}
        onConfirm={async () => {
          if (deleting) await del.mutateAsync(deleting.id).catch(() => undefined);
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
