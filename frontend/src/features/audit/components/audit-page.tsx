import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader, PageHeader } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { FilterPanel } from '@/components/ui/filter-panel';
import { Icon } from '@/components/ui/icons';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { formatDateTime } from '@/lib/format';
import { useDebouncedParam, useUrlParams } from '@/lib/url-state';
import type { AuditEntry } from '@/lib/api-types';
import { auditCsvUrl, useAuditLog, type AuditFilters } from '../api/audit';
import { actionFilterOptions, describeAction, resourceNoun } from './describe';
import { DiffView } from './diff-view';
import { RetentionCard } from './retention-card';

const actorKinds: Record<string, string> = { admin: 'Administrator', token: 'API token', system: 'Panel' };

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
        title="Audit log"
        description="Every change made through the panel, its API or its command line, and every sign-in, newest first. Secret values are never recorded."
        actions={
          <a className="btn" href={auditCsvUrl(filters)} download>
            <Icon name="download" size={16} />
            Download CSV
          </a>
        }
      />
      <div className="stack">
        {failures > 0 ? (
          <Alert tone="danger" title="Some changes were not recorded">
            {failures === 1 ? 'One entry' : `${failures} entries`} could not be written to the audit log since the panel started. The panel's log says why.
          </Alert>
        ) : null}
        <Card>
          <CardHeader title="Entries" description="Open an entry to see what changed. Filters apply to the CSV download too." />
          <FilterPanel label="Audit log filters" active={active} className="card-body log-filters">
            <Field label="Who">
              <input className="input" value={actor} onChange={(e) => setActor(e.target.value)} placeholder="admin or cli" autoCapitalize="off" spellCheck={false} />
            </Field>
            <Field label="Action">
              <select className="select" value={filters.action} onChange={(e) => set('action', e.target.value)}>
                <option value="">Any action</option>
                {actionFilterOptions.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Resource type">
              <input className="input mono" value={resourceType} onChange={(e) => setResourceType(e.target.value)} placeholder="services" autoCapitalize="off" spellCheck={false} />
            </Field>
            <Field label="Resource ID">
              <input className="input mono" value={resourceId} onChange={(e) => setResourceId(e.target.value)} autoCapitalize="off" spellCheck={false} />
            </Field>
            <Field label="Search">
              <input className="input" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, address, value…" />
            </Field>
            <Field label="From">
              <input className="input" type="datetime-local" value={params.get('from') ?? ''} onChange={(e) => set('from', e.target.value)} />
            </Field>
            <Field label="To">
              <input className="input" type="datetime-local" value={params.get('to') ?? ''} onChange={(e) => set('to', e.target.value)} />
            </Field>
          </FilterPanel>
          {log.isPending ? (
            <LoadingRows rows={4} />
          ) : log.isError && !log.data ? (
            <div className="card-body">
              <ErrorState error={log.error} onRetry={() => log.refetch()} title="Could not load the audit log" />
            </div>
          ) : entries.length === 0 ? (
            <EmptyState icon="list" title={filtered ? 'No matching entries' : 'No entries yet'}>
              {filtered ? 'Nothing recorded matches these filters.' : 'Changes and sign-ins appear here as they happen.'}
            </EmptyState>
          ) : (
            <>
              <EntriesTable entries={entries} />
              {log.hasNextPage ? (
                <div className="card-body row" style={{ justifyContent: 'center' }}>
                  <Button onClick={() => log.fetchNextPage()} loading={log.isFetchingNextPage}>
                    Load older entries
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

const columns: Column<AuditEntry>[] = [
  { id: 'time', header: 'Time', className: 'small nowrap', cell: (e) => formatDateTime(e.at) },
  {
    id: 'who',
    header: 'Who',
    className: 'small',
    cell: (e) => (
      <>
        <div>{e.actor.name || actorKinds[e.actor.kind] || e.actor.kind}</div>
        <div className="faint">
          {actorKinds[e.actor.kind] ?? e.actor.kind}
          {e.address ? <span className="mono"> · {e.address}</span> : null}
        </div>
      </>
    ),
  },
  { id: 'action', header: 'What', cell: (e) => <ActionBadge entry={e} /> },
  {
    id: 'resource',
    header: 'Resource',
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
    header: 'Request',
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
    header: 'Changes',
    hideHeader: true,
    className: 'nowrap',
    cell: (e, row) =>
      e.changes.length === 0 ? (
        <span className="small faint">No changes recorded</span>
      ) : (
        <Button size="sm" variant="ghost" aria-expanded={row.expanded} aria-controls={row.detailsId} onClick={row.toggleExpanded}>
          {row.expanded ? 'Hide changes' : `Changes (${e.changes.length})`}
        </Button>
      ),
  },
];

/** Newest first, as the server pages them; a row opens onto the fields it changed. */
function EntriesTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <DataTable
      data={entries}
      rowKey={(e) => e.id}
      columns={columns}
      caption={`Audit log, ${entries.length} entries, newest first`}
      className="log-table audit-table"
      details={(e) => <DiffView changes={e.changes} />}
      detailsClassName="audit-details"
      detailsIdPrefix="audit"
    />
  );
}
