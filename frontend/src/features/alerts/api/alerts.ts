import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { AlertKind, AlertRuleInput, AlertState } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

// Their names live in the alerts namespace: kinds.<kind>.
export const ALERT_KINDS: AlertKind[] = ['error_ratio', 'latency_p95', 'no_traffic', 'backend_down'];

/** Kinds whose rule has a threshold, with its unit. */
export const THRESHOLD_UNIT: Partial<Record<AlertKind, 'percent' | 'ms'>> = { error_ratio: 'percent', latency_p95: 'ms' };

export function useAlertRules() {
  return useQuery({
    queryKey: qk.alerts.rules(),
    queryFn: () => api.get('/api/alerts/rules').then((r) => r.items ?? []),
    refetchInterval: 60_000,
  });
}

export type EventFilters = { ruleId?: string; serviceId?: string; state?: AlertState };

export function useAlertEvents(filters: EventFilters) {
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as Record<string, string>;
  return useQuery({
    queryKey: qk.alerts.events(query),
    queryFn: () => api.get('/api/alerts/events', { query: { ...query, limit: 200 } }).then((r) => r.items ?? []),
    refetchInterval: 60_000,
  });
}

/** The services a rule may watch: id and name. */
export function useServiceChoices() {
  return useQuery({
    queryKey: qk.services.list(),
    queryFn: () => api.get('/api/services').then((r) => r.items ?? []),
    select: (items) => items.map((s) => ({ id: s.id, name: s.name })).sort((a, b) => a.name.localeCompare(b.name)),
  });
}

export function useSaveAlertRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: AlertRuleInput }) =>
      id ? api.put('/api/alerts/rules/{id}', { params: { id }, body }) : api.post('/api/alerts/rules', { body }),
    meta: { quiet: true, success: i18n.t('alerts:toasts.saved') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.alerts.all() }),
  });
}

export function useDeleteAlertRule() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/alerts/rules/{id}', { params: { id } }),
    meta: { success: i18n.t('alerts:toasts.deleted') },
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.alerts.all() }),
  });
}
