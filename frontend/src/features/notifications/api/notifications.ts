import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ChannelInput, ChannelKind, EventKind, NotificationSettings } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

export const CHANNEL_KINDS: { kind: ChannelKind; label: string }[] = [
  { kind: 'ntfy', label: 'ntfy' },
  { kind: 'gotify', label: 'Gotify' },
  { kind: 'discord', label: 'Discord' },
  { kind: 'slack', label: 'Slack' },
  { kind: 'telegram', label: 'Telegram' },
  { kind: 'email', label: 'E-mail (SMTP)' },
  { kind: 'webhook', label: 'Webhook' },
];

export const EVENT_KINDS: { kind: EventKind; label: string }[] = [
  { kind: 'cert_expiring', label: 'Certificate expiring' },
  { kind: 'cert_expired', label: 'Certificate expired' },
  { kind: 'backend_down', label: 'Backend down' },
  { kind: 'backend_recovered', label: 'Backend recovered' },
  { kind: 'service_expired', label: 'Service switched off by its expiry' },
  { kind: 'polling_stopped', label: 'Traefik stopped fetching the configuration' },
  { kind: 'managed_rejected', label: 'Managed configuration rejected' },
  { kind: 'managed_applied', label: 'Managed configuration applied' },
  { kind: 'signin_failures', label: 'Many failed sign-ins on a service' },
  { kind: 'backup_failed', label: 'A scheduled backup failed (and when it works again)' },
];

export function useChannels() {
  return useQuery({
    queryKey: qk.notifications.channels(),
    queryFn: () => api.get('/api/notifications/channels').then((r) => r.items ?? []),
  });
}

export function useSaveChannel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ChannelInput }) =>
      id ? api.put('/api/notifications/channels/{id}', { params: { id }, body }) : api.post('/api/notifications/channels', { body }),
    meta: { quiet: true, success: 'Channel saved' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.notifications.channels() }),
  });
}

export function useDeleteChannel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/notifications/channels/{id}', { params: { id } }),
    meta: { success: 'Channel deleted' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.notifications.channels() }),
  });
}

export function useTestChannel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/notifications/channels/{id}/test', { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: qk.notifications.channels() }),
  });
}

export function useNotificationSettings() {
  return useQuery({ queryKey: qk.notifications.settings(), queryFn: () => api.get('/api/notifications/settings') });
}

export function usePutNotificationSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettings) => api.put('/api/notifications/settings', { body }),
    meta: { quiet: true, success: 'Notification settings saved' },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.notifications.settings() }),
  });
}
