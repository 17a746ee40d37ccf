import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';

type Thing = { id: string; name: string };

function Harness({ onDelete }: { onDelete: (t: Thing) => Promise<unknown> }) {
  const [deleting, setDeleting] = useState<Thing | null>(null);
  return (
    <>
      <button type="button" onClick={() => setDeleting({ id: 't1', name: 'alpha' })}>
        Delete alpha
      </button>
      <ConfirmDeleteDialog item={deleting} title={`Delete ${deleting?.name ?? ''}?`} message="It is gone for good." onDelete={onDelete} onClose={() => setDeleting(null)} />
    </>
  );
}

describe('ConfirmDeleteDialog', () => {
  it('is closed without a record', () => {
    render(<ConfirmDeleteDialog item={null} title="Delete?" message="gone" onDelete={async () => undefined} onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes the record on Delete, then closes', async () => {
    const onDelete = vi.fn(async () => undefined);
    render(<Harness onDelete={onDelete} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete alpha' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete alpha?' });
    expect(within(dialog).getByText('It is gone for good.')).toBeInTheDocument();
    expect(onDelete).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledWith({ id: 't1', name: 'alpha' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes after a failed deletion too (the error toast says why)', async () => {
    const onDelete = vi.fn(async () => {
      throw new Error('conflict');
    });
    render(<Harness onDelete={onDelete} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete alpha' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onDelete).toHaveBeenCalledOnce();
  });

  it('Cancel closes without deleting', async () => {
    const onDelete = vi.fn(async () => undefined);
    render(<Harness onDelete={onDelete} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete alpha' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onDelete).not.toHaveBeenCalled();
  });
});
