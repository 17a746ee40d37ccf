import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Column } from './data-table';
import { ListPage, QueryTable, RowActions } from './list-page';

type Thing = { id: string; name: string };
const columns: Column<Thing>[] = [{ id: 'name', header: 'Name', cell: (r) => r.name }];
const loaded = { isPending: false, isError: false };

function page(over: Partial<Parameters<typeof ListPage<Thing>>[0]> = {}) {
  return (
    <ListPage<Thing>
      title="Things"
      description="All the things"
      query={loaded}
      table={{ data: [], rowKey: (r) => r.id, columns, label: 'Things list' }}
      emptyIcon="box"
      emptyTitle="No things"
      emptyText="Add one to start."
      {...over}
    />
  );
}

describe('ListPage', () => {
  it('shows the header, the table with its accessible name, and the cards below', () => {
    render(page({ table: { data: [{ id: 'a', name: 'alpha' }], rowKey: (r) => r.id, columns, label: 'Things list' }, children: <p>below</p> }));
    expect(screen.getByRole('heading', { level: 1, name: 'Things' })).toBeInTheDocument();
    expect(screen.getByText('All the things')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Things list' })).getByText('alpha')).toBeInTheDocument();
    expect(screen.getByText('below')).toBeInTheDocument();
  });

  it('offers the main action in the header and, with emptyLabel, in the empty list', async () => {
    const onClick = vi.fn();
    render(page({ create: { label: 'New thing', emptyLabel: 'Add thing', onClick } }));
    expect(screen.getByRole('heading', { name: 'No things' })).toBeInTheDocument();
    expect(screen.getByText('Add one to start.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New thing' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add thing' }));
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('offers nothing without create (a reader), and only the header button without emptyLabel', () => {
    const { rerender } = render(page());
    expect(screen.queryByRole('button')).toBeNull();
    rerender(page({ create: { label: 'Back up now', onClick: () => {}, loading: true } }));
    const buttons = screen.getAllByRole('button');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveAccessibleName('Back up now');
    expect(buttons[0]).toBeDisabled();
  });

  it('shows loading rows while the query is pending', () => {
    render(page({ query: { isPending: true, isError: false } }));
    expect(screen.getByLabelText('Loading')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('No things')).toBeNull();
  });

  it('on a load error shows it with Retry, the notes above and the alerts below it, and no empty state', async () => {
    const refetch = vi.fn();
    render(
      page({
        query: { isPending: false, isError: true, error: new Error('offline'), refetch },
        errorTitle: 'Could not load the things',
        notes: <p>read only</p>,
        alerts: <p>last run failed</p>,
      }),
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Could not load the things');
    expect(alert).toHaveTextContent('offline');
    const text = document.body.textContent ?? '';
    expect(text.indexOf('read only')).toBeLessThan(text.indexOf('offline'));
    expect(text.indexOf('offline')).toBeLessThan(text.indexOf('last run failed'));
    expect(screen.queryByText('No things')).toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledOnce();
  });
});

describe('QueryTable', () => {
  it('shows the empty state only when the query succeeded', () => {
    const props = { data: [] as Thing[], rowKey: (r: Thing) => r.id, columns, label: 'Things list', empty: <p>nothing here</p> };
    const { rerender } = render(<QueryTable query={loaded} {...props} />);
    expect(screen.getByText('nothing here')).toBeInTheDocument();
    rerender(<QueryTable query={{ isPending: false, isError: true }} {...props} />);
    expect(screen.queryByText('nothing here')).toBeNull();
  });
});

describe('RowActions', () => {
  it('names Edit and Delete for the row and puts the row’s own buttons first', async () => {
    const edit = vi.fn();
    const remove = vi.fn();
    render(
      <RowActions edit={{ label: 'Edit alpha', onClick: edit }} remove={{ label: 'Delete alpha', onClick: remove }}>
        <button type="button">Send test</button>
      </RowActions>,
    );
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual(['Send test', 'Edit alpha', 'Delete alpha']);
    await userEvent.click(screen.getByRole('button', { name: 'Edit alpha' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete alpha' }));
    expect(edit).toHaveBeenCalledOnce();
    expect(remove).toHaveBeenCalledOnce();
  });

  it('leaves out what is not given', () => {
    render(<RowActions remove={{ label: 'Delete alpha', onClick: () => {} }} />);
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });
});
