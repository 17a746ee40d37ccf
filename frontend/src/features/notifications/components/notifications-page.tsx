import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/modal';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime } from '@/lib/format';
import type { Channel, NotificationTestResult } from '@/lib/api-types';
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
          ) : list.length === 0 && !channels.isError ? (
            <EmptyState
              icon="bell"
              title="No notification channels"
              action={canWrite ? <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>Add a channel</Button> : null}
            >
              Add ntfy, Gotify, Discord, Slack, Telegram, e-mail or a webhook, then pick the events it receives.
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="table stacked" aria-label="Notification channels">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Service</th>
                    <th scope="col">Events</th>
                    <th scope="col">Last delivery</th>
                    <th scope="col" className="actions"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((c) => (
                    <ChannelRow key={c.id} channel={c} canWrite={canWrite} onEdit={() => setEditing(c)} onDelete={() => setDeleting(c)} />
                  ))}
                </tbody>
              </table>
            </div>
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

function ChannelRow({ channel: c, canWrite, onEdit, onDelete }: { channel: Channel; canWrite: boolean; onEdit: () => void; onDelete: () => void }) {
  const test = useTestChannel();
  const [result, setResult] = useState<NotificationTestResult | null>(null);
  const send = async () => {
    setResult(null);
    try {
      setResult(await test.mutateAsync(c.id));
    } catch {
      // The error toast says why.
    }
  };
  const ld = c.lastDelivery;
  return (
    <tr>
      <td>
        <strong>{c.name}</strong>
        {!c.enabled ? <> <Badge>Off</Badge></> : null}
      </td>
      <td data-label="Service">{kindLabel(c.kind)}</td>
      <td data-label="Events" className="small">
        {c.events.length === 0 ? <span className="muted">None</span> : c.events.map(eventLabel).join(', ')}
      </td>
      <td data-label="Last delivery" className="small">
        {ld ? (
          <div className="stack-sm">
            <span>
              <Badge tone={ld.ok ? 'success' : 'danger'} icon={ld.ok ? 'checkCircle' : 'xCircle'}>{ld.ok ? 'Delivered' : 'Failed'}</Badge>{' '}
              <span className="muted">{eventLabel(ld.event)} · {formatDateTime(ld.at)}</span>
            </span>
            {ld.error ? <span className="muted">{ld.error}</span> : null}
          </div>
        ) : (
          <span className="muted">Nothing sent yet</span>
        )}
        {result ? (
          <p role="status" className="small">
            {result.ok ? 'Test message sent.' : `Test failed: ${result.error ?? 'unknown error'}`}
          </p>
        ) : null}
      </td>
      <td className="actions">
        {canWrite ? (
          <div className="row" style={{ justifyContent: 'flex-end' }}>
            <Button size="sm" icon="play" loading={test.isPending} onClick={send} aria-label={`Send test to ${c.name}`}>
              Send test
            </Button>
            <Button size="sm" variant="ghost" iconOnly icon="edit" aria-label={`Edit ${c.name}`} onClick={onEdit} />
            <Button size="sm" variant="ghost" iconOnly icon="trash" aria-label={`Delete ${c.name}`} onClick={onDelete} />
          </div>
        ) : null}
      </td>
    </tr>
  );
}
