import { Fragment, useId, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import {
  createSortedRowModel,
  rowExpandingFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ExpandedState,
  type Row,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import i18n from '@/lib/i18n';
import { Icon } from './icons';

/** What a cell knows about its row besides the record. */
export type RowContext = {
  /** Position in `data` (not in the sorted order): the index of a form's field array. */
  index: number;
  /** Whether the row's details (see DataTable's `details`) are open. */
  expanded: boolean;
  toggleExpanded: () => void;
  /** id of the details row, for the toggle's aria-controls. */
  detailsId: string;
};

export type SortValue = string | number | null | undefined;

export type Column<T> = {
  /** Stable key of the column; the sort state names it. */
  id: string;
  /** Column heading; on phones also the label beside each cell. */
  header: string;
  /** Heading for screen readers only (an actions column). */
  hideHeader?: boolean;
  cell: (row: T, ctx: RowContext) => ReactNode;
  /** Makes the column sortable by this value (numbers compare as numbers, the rest as text). */
  sortValue?: (row: T) => SortValue;
  /**
   * The label beside the cell on phones. Defaults to the header, except on the first column
   * (the card's title) and on columns whose header is hidden.
   */
  label?: string | false;
  /** Classes of the body cells. */
  className?: string;
  /** Classes of the header cell. */
  headerClassName?: string;
  style?: CSSProperties;
  /** Per-row attributes of the cell: a title, a test id. */
  cellProps?: (row: T) => { title?: string; 'data-testid'?: string };
  /** Leaves the column out (a column only writers see). */
  hidden?: boolean;
};

/** A right-aligned column of row actions with a heading only screen readers hear. */
export function actionsColumn<T>(cell: (row: T, ctx: RowContext) => ReactNode, opts: { hidden?: boolean } = {}): Column<T> {
  return { id: 'actions', header: i18n.t('common:words.actions'), hideHeader: true, className: 'actions', headerClassName: 'actions', cell, ...opts };
}

type DataTableProps<T> = {
  columns: Column<T>[];
  data: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** The table's accessible name, as a caption only screen readers see. */
  caption?: string;
  /** The table's accessible name, as aria-label (when no caption is wanted). */
  label?: string;
  /** Shown instead of the table when there are no rows; without it an empty table shows. */
  empty?: ReactNode;
  /** On phone widths each row becomes a card with the column headers as labels (default on). */
  cards?: boolean;
  /** Sorted by this column at first, and always by one column. Without it rows keep their order until a header is clicked. */
  initialSort?: { id: string; desc?: boolean };
  /** Extra classes of the table and of its scrolling wrapper. */
  className?: string;
  wrapClassName?: string;
  /** A row's details, shown in a full-width row under it while expanded (ctx.toggleExpanded). */
  details?: (row: T) => ReactNode;
  detailsClassName?: string;
  /** Prefix of the details rows' ids (default: a generated one). */
  detailsIdPrefix?: string;
};

const features = tableFeatures({ rowSortingFeature, sortedRowModel: createSortedRowModel(), rowExpandingFeature });
type Features = typeof features;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareRows<T extends RowData>(a: Row<Features, T>, b: Row<Features, T>, id: string): number {
  const x = a.getValue<SortValue>(id);
  const y = b.getValue<SortValue>(id);
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return collator.compare(String(x), String(y));
}

const ariaSort = { asc: 'ascending', desc: 'descending' } as const;

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/**
 * A table of records on TanStack Table: column definitions, sorting by a header's button
 * (announced with aria-sort), an empty state, optional details rows, and a card layout on
 * phones (CSS `.table.stacked`: the header row hides and each cell shows its column's name).
 */
export function DataTable<T extends RowData>({
  columns,
  data,
  rowKey,
  caption,
  label,
  empty,
  cards = true,
  initialSort,
  className,
  wrapClassName,
  details,
  detailsClassName,
  detailsIdPrefix,
}: DataTableProps<T>) {
  const generatedId = useId();
  const idPrefix = detailsIdPrefix ?? `${generatedId}details`;
  const shown = useMemo(() => columns.filter((c) => !c.hidden), [columns]);
  const byId = useMemo(() => new Map(shown.map((c) => [c.id, c])), [shown]);
  const defs = useMemo(
    () =>
      shown.map(
        (c): ColumnDef<Features, T> => ({
          id: c.id,
          header: c.header,
          accessorFn: (row: T) => c.sortValue?.(row) ?? undefined,
          enableSorting: !!c.sortValue,
          sortFn: compareRows,
          sortUndefined: 'last',
        }),
      ),
    [shown],
  );
  const [sorting, setSorting] = useState<SortingState>(initialSort ? [{ id: initialSort.id, desc: !!initialSort.desc }] : []);
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const table = useTable({
    features,
    columns: defs,
    data,
    getRowId: rowKey,
    // A column that went away (hidden for this viewer) no longer sorts.
    state: { sorting: sorting.filter((s) => byId.get(s.id)?.sortValue), expanded },
    onSortingChange: setSorting,
    onExpandedChange: setExpanded,
    enableMultiSort: false,
    sortDescFirst: false,
    enableSortingRemoval: !initialSort,
    // The data changes on every poll; an open details row stays open.
    autoResetExpanded: false,
    getRowCanExpand: () => !!details,
  });

  if (data.length === 0 && empty !== undefined) return <>{empty}</>;
  const sortable = shown.some((c) => c.sortValue);
  const labelOf = (c: Column<T>, i: number) => {
    if (!cards || c.label === false) return undefined;
    if (c.label !== undefined) return c.label;
    return i === 0 || c.hideHeader ? undefined : c.header;
  };

  return (
    <div className={cx('table-wrap', wrapClassName)}>
      <table className={cx('table', cards && 'stacked', sortable && 'sortable', className)} aria-label={label}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((h) => {
                const c = byId.get(h.column.id)!;
                const dir = h.column.getIsSorted();
                return (
                  <th key={h.id} scope="col" className={cx(c.headerClassName, c.sortValue && 'sortable')} aria-sort={dir ? ariaSort[dir] : undefined}>
                    {c.hideHeader ? (
                      <span className="sr-only">{c.header}</span>
                    ) : h.column.getCanSort() ? (
                      <button type="button" className="th-sort" onClick={h.column.getToggleSortingHandler()}>
                        {c.header}
                        <Icon name={dir === 'desc' ? 'chevronDown' : 'chevronUp'} size={12} className={cx('th-sort-icon', !dir && 'idle')} />
                      </button>
                    ) : (
                      c.header
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => {
            const detailsId = `${idPrefix}-${row.id}`;
            const isOpen = !!details && row.getIsExpanded();
            const ctx: RowContext = { index: row.index, expanded: isOpen, toggleExpanded: () => row.toggleExpanded(), detailsId };
            return (
              <Fragment key={row.id}>
                <tr>
                  {shown.map((c, i) => (
                    <td key={c.id} className={c.className} style={c.style} data-label={labelOf(c, i)} {...c.cellProps?.(row.original)}>
                      {c.cell(row.original, ctx)}
                    </td>
                  ))}
                </tr>
                {isOpen ? (
                  <tr id={detailsId} className={detailsClassName}>
                    <td colSpan={shown.length}>{details(row.original)}</td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
