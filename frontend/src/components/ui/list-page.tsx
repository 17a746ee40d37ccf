import type { ReactNode } from 'react';
import type { RowData } from '@tanstack/react-table';
import { Button } from './button';
import { Card, PageHeader } from './card';
import { DataTable, type Column } from './data-table';
import type { IconName } from './icons';
import { EmptyState, ErrorState, LoadingRows } from './states';

/** What a list needs to know of its query (a TanStack Query result fits). */
export type ListQuery = {
  isPending: boolean;
  isError: boolean;
  error?: unknown;
  refetch?: () => unknown;
};

type QueryTableProps<T> = {
  query: Pick<ListQuery, 'isPending' | 'isError'>;
  data: readonly T[];
  rowKey: (row: T, index: number) => string;
  columns: Column<T>[];
  /** The table's accessible name. */
  label: string;
  /** Shown instead of an empty table, unless the query failed (its error says why the list is empty). */
  empty: ReactNode;
};

/** A query's rows: skeleton rows while it loads, then the table, or its empty state. */
export function QueryTable<T extends RowData>({ query, empty, ...table }: QueryTableProps<T>) {
  if (query.isPending) return <LoadingRows />;
  return <DataTable {...table} empty={query.isError ? undefined : empty} />;
}

type ListPageProps<T> = {
  title: string;
  description?: ReactNode;
  /**
   * The page's main action (New…, Back up now), left out for readers. With `emptyLabel` the
   * empty list offers it too.
   */
  create?: { label: string; emptyLabel?: string; onClick: () => void; loading?: boolean };
  query: ListQuery;
  /** The load error's title, when the default ("Could not load") says too little. */
  errorTitle?: string;
  /** Above the load error: facts about the page (read-only access). */
  notes?: ReactNode;
  /** Between the load error and the list: what went wrong elsewhere. */
  alerts?: ReactNode;
  table: Omit<QueryTableProps<T>, 'query' | 'empty'>;
  emptyIcon: IconName;
  emptyTitle: string;
  emptyText: ReactNode;
  /** Cards under the list (settings, history). */
  children?: ReactNode;
};

/**
 * A page that is one list of records: its header and main action, the load error, the list in a
 * card (loading rows, the table, or an empty state offering the main action), then cards below.
 * Dialogs go beside it.
 */
export function ListPage<T extends RowData>({ title, description, create, query, errorTitle, notes, alerts, table, emptyIcon, emptyTitle, emptyText, children }: ListPageProps<T>) {
  const button = (label: string) =>
    create ? (
      <Button variant="primary" icon="plus" loading={create.loading} onClick={create.onClick}>
        {label}
      </Button>
    ) : null;
  return (
    <>
      <PageHeader title={title} description={description} actions={create ? button(create.label) : null} />
      <div className="stack">
        {notes}
        {query.isError ? <ErrorState error={query.error} onRetry={() => query.refetch?.()} title={errorTitle} /> : null}
        {alerts}
        <Card>
          <QueryTable
            query={query}
            {...table}
            empty={
              <EmptyState icon={emptyIcon} title={emptyTitle} action={create?.emptyLabel ? button(create.emptyLabel) : null}>
                {emptyText}
              </EmptyState>
            }
          />
        </Card>
        {children}
      </div>
    </>
  );
}

/** A row's trailing buttons: its own first (children), then Edit and Delete as icons named for the row. */
export function RowActions({
  edit,
  remove,
  children,
}: {
  edit?: { label: string; onClick: () => void };
  remove?: { label: string; onClick: () => void };
  children?: ReactNode;
}) {
  return (
    <div className="row" style={{ justifyContent: 'flex-end' }}>
      {children}
      {edit ? <Button size="sm" variant="ghost" iconOnly icon="edit" aria-label={edit.label} onClick={edit.onClick} /> : null}
      {remove ? <Button size="sm" variant="ghost" iconOnly icon="trash" aria-label={remove.label} onClick={remove.onClick} /> : null}
    </div>
  );
}
