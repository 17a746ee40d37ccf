import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, PageHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { FilterPanel } from '@/components/ui/filter-panel';
import { Icon } from '@/components/ui/icons';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import i18n from '@/lib/i18n';
import { useDebouncedParam, useUrlParams } from '@/lib/url-state';
import type { AuditEntry } from '@/lib/api-types';
import { auditCsvUrl, useAuditLog, type AuditFilters } from '../api/audit';
import { actionFilterOptions, actionLabel, describeAction, resourceNoun } from './describe';
import { DiffView } from './diff-view';
import { RetentionCard } from './retention-card';

const actorKinds = { admin: 'actors.admin', token: 'actors.token', system: 'actors.system' } as const;

/** What kind of actor made an entry, in the current language (an unknown kind reads as itself). */
function actorKind(kind: string): string | undefined {
  return Object.hasOwn(actorKinds, kind) ? i18n.t(`audit:${actorKinds[kind as keyof typeof actorKinds]}`) : undefined;
}

function ActionBadge({ entry }: { entry: AuditEntry }) {
  const a = describeAction(entry.action, entry.resource.type);
  return <Badge tone={a.tone}>{a.text}</Badge>;
}

/** datetime-local values are local time; the API takes RFC 3339. */
function toISO(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

export function AuditPage() {
  const { t } = useTranslation('audit');
  const [params, set] = useUrlParams();
  const [actor, setActor] = useDebouncedParam('actor', params, set);
  const [resourceType, setResourceType] = useDebouncedParam('resourceType', params, set);
  const [resourceId, setResourceId] = useDebouncedParam('resourceId', params, set);
  const [q, setQ] = useDebouncedParam('q', params, set);
  const filters: AuditFilters = {
    actor: params.get('actor') ?? '',
    action: params.get('action') ?? '',
    resourceType: params.get('resourceType') ?? '',
    resourceId: params.get('resourceId') ?? '',
    q: params.get('q') ?? '',
    from: toISO(params.get('from') ?? ''),
    to: toISO(params.get('to') ?? ''),
  };
  const active = Object.values(filters).filter(Boolean).length;
  const filtered = active > 0;
  const log = useAuditLog(filters);
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  const failures = log.data?.pages[0]?.recordFailures ?? 0;

  return (
    <>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          <a className="btn" href={auditCsvUrl(filters)} download>
            <Icon name="download" size={16} />
            {t('page.downloadCsv')}
          </a>
        }
      />
      <div className="stack">
        {failures > 0 ? (
          <Alert tone="danger" title={t('page.failuresTitle')}>
            {t('page.failures', { count: failures })}
          </Alert>
        ) : null}
        <Card>
          <CardHeader title={t('page.entriesTitle')} description={t('page.entriesDescription')} />
          <FilterPanel label={t('filters.label')} active={active} className="card-body log-filters">
            <Field label={t('filters.who')}>
              <input className="input" value={actor} onChange={(e) => setActor(e.target.value)} placeholder={t('filters.whoPlaceholder')} autoCapitalize="off" spellCheck={false} />
            </Field>
            <Field label={t('filters.action')}>
              <select className="select" value={filters.action} onChange={(e) => set('action', e.target.value)}>
                <option value="">{t('filters.anyAction')}</option>
                {actionFilterOptions.map((o) => (
                  <option key={o} value={o}>
                    {actionLabel(o)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('filters.resourceType')}>
              <input className="input mono" value={resourceType} onChange={(e) => setResourceType(e.target.value)} placeholder={t('filters.resourceTypePlaceholder')} autoCapitalize="off" spellCheck={false} />
            </Field>
            <Field label={t('filters.resourceId')}>
              <input className="input mono" value={resourceId} onChange={(e) => setResourceId(e.target.value)} autoCapitalize="off" spellCheck={false} />
            </Field>
            <Field label={t('filters.search')}>
              <input className="input" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('filters.searchPlaceholder')} />
            </Field>
            <Field label={t('filters.from')}>
              <input className="input" type="datetime-local" value={params.get('from') ?? ''} onChange={(e) => set('from', e.target.value)} />
            </Field>
            <Field label={t('filters.to')}>
              <input className="input" type="datetime-local" value={params.get('to') ?? ''} onChange={(e) => set('to', e.target.value)} />
            </Field>
          </FilterPanel>
          {log.isPending ? (
            <LoadingRows rows={4} />
          ) : log.isError && !log.data ? (
            <div className="card-body">
              <ErrorState error={log.error} onRetry={() => log.refetch()} title={t('page.loadFailed')} />
            </div>
          ) : entries.length === 0 ? (
            <EmptyState icon="list" title={filtered ? t('page.noMatches') : t('page.empty')}>
              {filtered ? t('page.noMatchesBody') : t('page.emptyBody')}
            </EmptyState>
          ) : (
            <>
              <EntriesTable entries={entries} />
              {log.hasNextPage ? (
                <div className="card-body row" style={{ justifyContent: 'center' }}>
                  <Button onClick={() => log.fetchNextPage()} loading={log.isFetchingNextPage}>
                    {t('page.loadOlder')}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </Card>
        <RetentionCard />
      </div>
    </>
  );
}

function auditColumns(t: TFunction<'audit'>): Column<AuditEntry>[] {
  return [
  { id: 'time', header: t('table.time'), className: 'small nowrap', cell: (e) => formatDateTime(e.at) },
  {
    id: 'who',
    header: t('table.who'),
    className: 'small',
    cell: (e) => (
      <>
        <div>{e.actor.name || actorKind(e.actor.kind) || e.actor.kind}</div>
        <div className="faint">
          {actorKind(e.actor.kind) ?? e.actor.kind}
          {e.address ? <span className="mono"> · {e.address}</span> : null}
        </div>
      </>
    ),
  },
  { id: 'action', header: t('table.what'), cell: (e) => <ActionBadge entry={e} /> },
  {
    id: 'resource',
    header: t('table.resource'),
    className: 'small',
    cell: (e) => (
      <>
        <div className="audit-resource">{e.resource.name || (e.resource.id ? <span className="mono">{e.resource.id}</span> : '—')}</div>
        {e.resource.type ? (
          <div className="faint" title={e.resource.type}>
            {resourceNoun(e.resource.type)}
          </div>
        ) : null}
      </>
    ),
  },
  {
    id: 'request',
    header: t('table.request'),
    className: 'small mono',
    cell: (e) =>
      e.method ? (
        <>
          <strong>{e.method}</strong> {e.route} <span className="faint">{e.status}</span>
        </>
      ) : (
        <span className="faint">—</span>
      ),
  },
  {
    id: 'changes',
    header: t('table.changes'),
    hideHeader: true,
    className: 'nowrap',
    cell: (e, row) =>
      e.changes.length === 0 ? (
        <span className="small faint">{t('table.noChanges')}</span>
      ) : (
        <Button size="sm" variant="ghost" aria-expanded={row.expanded} aria-controls={row.detailsId} onClick={row.toggleExpanded}>
          {row.expanded ? t('table.hideChanges') : t('table.showChanges', { count: e.changes.length })}
        </Button>
      ),
  },
  ];
}

/** Newest first, as the server pages them; a row opens onto the fields it changed. */
function EntriesTable({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation('audit');
  const columns = useMemo(() => auditColumns(t), [t]);
  return (
    <DataTable
      data={entries}
      rowKey={(e) => e.id}
      columns={columns}
      caption={t('table.caption', { n: entries.length })}
      className="log-table audit-table"
      details={(e) => <DiffView changes={e.changes} />}
      detailsClassName="audit-details"
      detailsIdPrefix="audit"
    />
  );
}
