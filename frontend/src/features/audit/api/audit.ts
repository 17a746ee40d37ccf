import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import type { AuditSettings } from '@/lib/api-types';
import { qk } from '@/lib/query-keys';

/** Filters as the API names them; empty values are left out of the query. */
export type AuditFilters = {
  actor?: string;
  action?: string;
  resourceType?: string;
  resourceId?: string;
  q?: string;
  from?: string;
  to?: string;
};

export const AUDIT_PAGE_SIZE = 50;

export function auditQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) p.set(k, v);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The CSV export of everything the filters match (the browser downloads it). */
export function auditCsvUrl(filters: AuditFilters): string {
  return `/api/audit${auditQuery(filters, { format: 'csv' })}`;
}

/** Pages of the log, newest first; the next page continues below the last entry shown. */
export function useAuditLog(filters: AuditFilters) {
  const clean: AuditFilters = Object.fromEntries(Object.entries(filters).filter(([, v]) => v));
  return useInfiniteQuery({
    queryKey: qk.audit.list(clean),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.get('/api/audit', { query: { ...clean, limit: AUDIT_PAGE_SIZE, before: pageParam || undefined }, signal }),
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
}

export function useAuditSettings() {
  return useQuery({ queryKey: qk.audit.settings(), queryFn: () => api.get('/api/audit/settings') });
}

export function usePutAuditSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AuditSettings) => api.put('/api/audit/settings', { body }),
    meta: { quiet: true, success: i18n.t('audit:retention.saved') },
    // The change is itself an entry in the log.
    onSuccess: () => qc.invalidateQueries({ queryKey: qk.audit.all() }),
  });
}
