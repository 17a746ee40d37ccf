import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { actionsColumn, DataTable, type Column } from './data-table';

type Box = { id: string; name: string; size: number | null };

const boxes: Box[] = [
  { id: 'b', name: 'beta', size: 10 },
  { id: 'a', name: 'Alpha', size: 9 },
  { id: 'c', name: 'gamma', size: null },
];

const columns: Column<Box>[] = [
  { id: 'name', header: 'Name', sortValue: (b) => b.name, cell: (b) => <strong>{b.name}</strong> },
  { id: 'size', header: 'Size', sortValue: (b) => b.size, cellProps: (b) => ({ title: `${b.size ?? 'no'} bytes` }), cell: (b) => b.size ?? '—' },
  { id: 'note', header: 'Note', cell: () => 'plain' },
  actionsColumn((b) => <button type="button">Open {b.name}</button>),
];

/** Names in the body, top to bottom. */
const order = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

describe('DataTable', () => {
  it('renders the records with a caption, and labels each cell for the phone cards', () => {
    render(<DataTable data={boxes} columns={columns} rowKey={(b) => b.id} caption="Boxes" />);
    const table = screen.getByRole('table', { name: 'Boxes' });
    // On phones each row is a card: the table carries the class the CSS turns into cards.
    expect(table).toHaveClass('table', 'stacked');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Size', 'Note', 'Actions']);
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    // The first cell is the card's title, the actions need no label.
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual([null, 'Size', 'Note', null]);
    expect(cells[1]).toHaveAttribute('title', '10 bytes');
    expect(cells[3]).toHaveClass('actions');
    expect(within(table).getByRole('button', { name: 'Open beta' })).toBeInTheDocument();
  });

  it('keeps plain rows without the phone layout when cards are off', () => {
    render(<DataTable data={boxes} columns={columns} rowKey={(b) => b.id} label="Boxes" cards={false} />);
    const table = screen.getByRole('table', { name: 'Boxes' });
    expect(table).not.toHaveClass('stacked');
    expect(within(table).getAllByRole('cell').some((c) => c.hasAttribute('data-label'))).toBe(false);
  });

  it('shows the empty state instead of a table, or an empty table without one', () => {
    const { rerender } = render(<DataTable data={[]} columns={columns} rowKey={(b) => b.id} empty={<p>Nothing here</p>} />);
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    rerender(<DataTable data={[]} columns={columns} rowKey={(b) => b.id} />);
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(1);
  });

  it('sorts by a header: ascending, descending, then back to the given order, with aria-sort', async () => {
    const user = userEvent.setup();
    render(<DataTable data={boxes} columns={columns} rowKey={(b) => b.id} />);
    const name = screen.getByRole('columnheader', { name: 'Name' });
    expect(name).not.toHaveAttribute('aria-sort');
    // Only sortable columns get a button.
    expect(within(screen.getByRole('columnheader', { name: 'Note' })).queryByRole('button')).not.toBeInTheDocument();

    await user.click(within(name).getByRole('button', { name: 'Name' }));
    expect(name).toHaveAttribute('aria-sort', 'ascending');
    expect(order()).toEqual(['Alpha', 'beta', 'gamma']);
    await user.click(within(name).getByRole('button'));
    expect(name).toHaveAttribute('aria-sort', 'descending');
    expect(order()).toEqual(['gamma', 'beta', 'Alpha']);
    await user.click(within(name).getByRole('button'));
    expect(name).not.toHaveAttribute('aria-sort');
    expect(order()).toEqual(['beta', 'Alpha', 'gamma']);
  });

  it('sorts numbers as numbers, empty values last, and works from the keyboard', async () => {
    const user = userEvent.setup();
    render(<DataTable data={boxes} columns={columns} rowKey={(b) => b.id} />);
    const size = screen.getByRole('columnheader', { name: 'Size' });
    within(size).getByRole('button').focus();
    await user.keyboard('{Enter}');
    expect(size).toHaveAttribute('aria-sort', 'ascending');
    expect(order()).toEqual(['Alpha', 'beta', 'gamma']);
    await user.keyboard(' ');
    expect(size).toHaveAttribute('aria-sort', 'descending');
    expect(order()).toEqual(['beta', 'Alpha', 'gamma']);
    // One column at a time.
    expect(screen.getByRole('columnheader', { name: 'Name' })).not.toHaveAttribute('aria-sort');
  });

  it('starts sorted when told, and then always keeps one order', async () => {
    const user = userEvent.setup();
    render(<DataTable data={boxes} columns={columns} rowKey={(b) => b.id} initialSort={{ id: 'size' }} />);
    const size = screen.getByRole('columnheader', { name: 'Size' });
    expect(size).toHaveAttribute('aria-sort', 'ascending');
    expect(order()).toEqual(['Alpha', 'beta', 'gamma']);
    await user.click(within(size).getByRole('button'));
    await user.click(within(size).getByRole('button'));
    expect(size).toHaveAttribute('aria-sort', 'ascending');
  });

  it('keeps the phone sort buttons for sortable tables only', () => {
    const { rerender } = render(<DataTable data={boxes} columns={columns} rowKey={(b) => b.id} />);
    expect(screen.getByRole('table')).toHaveClass('sortable');
    rerender(<DataTable data={boxes} columns={columns.map(({ sortValue: _, ...c }) => c)} rowKey={(b) => b.id} />);
    expect(screen.getByRole('table')).not.toHaveClass('sortable');
  });

  it('opens a row onto its details and leaves hidden columns out', async () => {
    const user = userEvent.setup();
    const withToggle: Column<Box>[] = [
      columns[0]!,
      { ...columns[1]!, hidden: true },
      {
        id: 'more',
        header: 'More',
        hideHeader: true,
        cell: (b, row) => (
          <button type="button" aria-expanded={row.expanded} aria-controls={row.detailsId} onClick={row.toggleExpanded}>
            More on {b.name}
          </button>
        ),
      },
    ];
    render(<DataTable data={boxes} columns={withToggle} rowKey={(b) => b.id} details={(b) => <p>All about {b.name}</p>} detailsIdPrefix="box" />);
    expect(screen.getAllByRole('columnheader')).toHaveLength(2);
    const toggle = screen.getByRole('button', { name: 'More on beta' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = screen.getByText('All about beta').closest('tr')!;
    expect(details).toHaveAttribute('id', 'box-b');
    expect(toggle).toHaveAttribute('aria-controls', 'box-b');
    expect(within(details).getByRole('cell')).toHaveAttribute('colspan', '2');
    await user.click(toggle);
    expect(screen.queryByText('All about beta')).not.toBeInTheDocument();
  });
});
