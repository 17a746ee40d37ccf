import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FilterPanel } from '@/components/ui/filter-panel';
import { ConfirmDeleteDialog } from '@/components/ui/confirm-delete-dialog';
import { actionsColumn, type Column } from '@/components/ui/data-table';
import { ListPage, QueryTable, RowActions } from '@/components/ui/list-page';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { useCanWrite } from '@/lib/api/system';
import { formatDateTime, formatNumber } from '@/lib/format';
import i18n from '@/lib/i18n';
import type { AlertEvent, AlertKind, AlertRule, AlertState } from '@/lib/api-types';
import { useAlertEvents, useAlertRules, useDeleteAlertRule, type EventFilters } from '../api/alerts';
import { RuleModal } from './rule-form';

const STATES: AlertState[] = ['firing', 'resolved'];

/** What a rule watches, in words: "5xx above 5 % for 3 min". */
function condition(kind: AlertKind, threshold: number, minutes: number): string {
  return i18n.t(`alerts:conditions.${kind}`, { threshold: formatNumber(threshold, 2), minutes });
}

/** An episode's figure with its unit. */
function figure(kind: AlertKind, v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  switch (kind) {
    case 'error_ratio':
      return i18n.t('alerts:values.percent', { value: formatNumber(v, 1) });
    case 'latency_p95':
      return i18n.t('alerts:values.ms', { value: formatNumber(v, 1) });
    case 'backend_down':
      return i18n.t('alerts:values.up', { value: formatNumber(v, 1) });
    case 'no_traffic':
      return i18n.t('alerts:values.requests', { count: v });
  }
}

const scope = (serviceId: string | null | undefined, name: string) => (serviceId ? name || serviceId : i18n.t('alerts:list.allServices'));

export function AlertsPage() {
  const { t } = useTranslation(['alerts', 'common']);
  const canWrite = useCanWrite();
  const rules = useAlertRules();
  const del = useDeleteAlertRule();
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  const columns: Column<AlertRule>[] = [
    {
      id: 'name',
      header: t('common:words.name'),
      sortValue: (r) => r.name,
      cell: (r) => (
        <>
          <strong>{r.name}</strong>{' '}
          {!r.enabled ? (
            <Badge>{t('common:words.off')}</Badge>
          ) : r.firing ? (
            <Badge tone="danger" icon="alert">
              {t('states.firing')}
            </Badge>
          ) : (
            <Badge tone="success" icon="checkCircle">
              {t('list.ok')}
            </Badge>
          )}
        </>
      ),
    },
    { id: 'scope', header: t('list.scope'), sortValue: (r) => scope(r.serviceId, r.serviceName), cell: (r) => scope(r.serviceId, r.serviceName) },
    { id: 'condition', header: t('list.condition'), cell: (r) => condition(r.kind, r.threshold, r.forMinutes) },
    actionsColumn((r) =>
      canWrite ? (
        <RowActions edit={{ label: t('list.edit', { name: r.name }), onClick: () => setEditing(r) }} remove={{ label: t('list.delete', { name: r.name }), onClick: () => setDeleting(r) }} />
      ) : null,
    ),
  ];
  return (
    <>
      <ListPage
        title={t('page.title')}
        description={t('page.description')}
        create={canWrite ? { label: t('page.new'), emptyLabel: t('page.add'), onClick: () => setEditing('new') } : undefined}
        query={rules}
        table={{ data: rules.data ?? [], rowKey: (r) => r.id, columns, label: t('page.rules') }}
        emptyIcon="bell"
        emptyTitle={t('page.empty')}
        emptyText={t('page.emptyText')}
      >
        <History rules={rules.data ?? []} />
      </ListPage>
      <RuleModal open={editing !== null} rule={editing === 'new' || editing === null ? undefined : editing} onClose={() => setEditing(null)} />
      <ConfirmDeleteDialog
        item={deleting}
        title={t('page.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('page.deleteMessage')}
        loading={del.isPending}
        onDelete={(r) => del.mutateAsync(r.id)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/** The episodes, newest first, filtered by rule and state. */
function History({ rules }: { rules: AlertRule[] }) {
  const { t } = useTranslation(['alerts', 'common']);
  const [filters, setFilters] = useState<EventFilters>({});
  const events = useAlertEvents(filters);
  const columns: Column<AlertEvent>[] = [
    {
      id: 'state',
      header: t('history.state'),
      cell: (e) =>
        e.state === 'firing' ? (
          <Badge tone="danger" icon="alert">
            {t('states.firing')}
          </Badge>
        ) : (
          <Badge tone="success" icon="checkCircle">
            {t('states.resolved')}
          </Badge>
        ),
    },
    {
      id: 'rule',
      header: t('history.rule'),
      cell: (e) => (
        <>
          <strong>{e.ruleName}</strong>
          <div className="muted small">{scope(e.serviceId, e.serviceName)} · {condition(e.kind, e.threshold, e.forMinutes)}</div>
        </>
      ),
    },
    { id: 'value', header: t('history.value'), cell: (e) => figure(e.kind, e.value) },
    { id: 'fired', header: t('history.fired'), sortValue: (e) => e.firedAt, cell: (e) => formatDateTime(e.firedAt) },
    {
      id: 'resolved',
      header: t('history.resolvedAt'),
      cell: (e) =>
        e.resolvedAt ? (
          <>
            {formatDateTime(e.resolvedAt)}
            {e.resolution ? <div className="muted small">{t(`history.resolution.${e.resolution}`)}</div> : null}
          </>
        ) : (
          <span className="muted">{t('history.stillFiring')}</span>
        ),
    },
  ];
  return (
    <Card>
      <CardHeader title={t('history.title')} description={t('history.description')} />
      <FilterPanel label={t('history.filters')} active={(filters.ruleId ? 1 : 0) + (filters.state ? 1 : 0)} className="card-body log-filters">
        <Field label={t('history.rule')}>
          <select className="select" value={filters.ruleId ?? ''} onChange={(ev) => setFilters((f) => ({ ...f, ruleId: ev.target.value || undefined }))}>
            <option value="">{t('history.allRules')}</option>
            {rules.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('history.state')}>
          <select
            className="select"
            value={filters.state ?? ''}
            onChange={(ev) => setFilters((f) => ({ ...f, state: (ev.target.value || undefined) as AlertState | undefined }))}
          >
            <option value="">{t('history.allStates')}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {t(`states.${s}`)}
              </option>
            ))}
          </select>
        </Field>
      </FilterPanel>
      {events.isError ? <ErrorState error={events.error} onRetry={() => events.refetch()} /> : null}
      <QueryTable
        query={events}
        data={events.data ?? []}
        rowKey={(e) => e.id}
        columns={columns}
        label={t('history.label')}
        empty={
          <EmptyState icon="clock" title={t('history.empty')}>
            {t('history.emptyText')}
          </EmptyState>
        }
      />
    </Card>
  );
}
