import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { ChannelInput, ChannelKind, EventKind, NotificationSettings } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

// Their names live in the notifications namespace: kinds.<kind> and events.<kind>.
export const CHANNEL_KINDS: ChannelKind[] = ['ntfy', 'gotify', 'discord', 'slack', 'telegram', 'email', 'webhook'];

export const EVENT_KINDS: EventKind[] = [
  'cert_expiring',
  'cert_expired',
  'backend_down',
  'backend_recovered',
  'service_expired',
  'polling_stopped',
  'managed_rejected',
  'managed_applied',
  'signin_failures',
  'backup_failed',
  'alert_firing',
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
    meta: { quiet: true, success: i18n.t('notifications:toasts.saved') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.notifications.channels() }),
  });
}

export function useDeleteChannel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/notifications/channels/{id}', { params: { id } }),
    meta: { success: i18n.t('notifications:toasts.deleted') },
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
    meta: { quiet: true, success: i18n.t('notifications:toasts.settings') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.notifications.settings() }),
  });
}
