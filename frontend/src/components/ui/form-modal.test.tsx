import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '@/lib/api-client';
import { Field } from './field';
import { FormModal } from './form-modal';

const schema = z.object({ name: z.string().trim().min(1, 'Enter a name'), port: z.string() });
type Values = z.infer<typeof schema>;

/** A page with a button that opens a FormModal over a two-field form. */
function Harness({ save, onClosed = () => {} }: { save: (v: Values) => Promise<void>; onClosed?: () => void }) {
  const [open, setOpen] = useState(false);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: '', port: '' } });
  const close = () => {
    setOpen(false);
    onClosed();
  };
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        New thing
      </button>
      <FormModal
        open={open}
        onClose={close}
        form={form}
        title="New thing"
        submitLabel="Create"
        serverErrors={{ known: (p) => p === 'name' || p === 'port' }}
        onSubmit={async (v) => {
          await save(v);
          close();
        }}
      >
        <Field label="Name" error={form.formState.errors.name?.message}>
          <input className="input" data-autofocus {...form.register('name')} />
        </Field>
        <Field label="Port" error={form.formState.errors.port?.message}>
          <input className="input" {...form.register('port')} />
        </Field>
      </FormModal>
    </>
  );
}

const setup = (save: (v: Values) => Promise<void> = async () => {}) => {
  const onClosed = vi.fn();
  const user = userEvent.setup();
  render(<Harness save={save} onClosed={onClosed} />);
  return { user, onClosed };
};

const open = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByRole('button', { name: 'New thing' }));
  return screen.getByRole('dialog', { name: 'New thing' });
};

describe('FormModal', () => {
  it('checks the form before saving, saves the parsed values and closes', async () => {
    const save = vi.fn(async () => {});
    const { user, onClosed } = setup(save);
    const dialog = await open(user);
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Enter a name')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText('Name'), '  web  ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClosed).toHaveBeenCalled());
    expect(save).toHaveBeenCalledWith({ name: 'web', port: '' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Opened again, it starts empty.
    expect(within(await open(user)).getByLabelText('Name')).toHaveValue('');
  });

  it('shows the pending state while saving', async () => {
    let finish = () => {};
    const { user } = setup(() => new Promise<void>((r) => (finish = r)));
    const dialog = await open(user);
    await user.type(within(dialog).getByLabelText('Name'), 'web');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create' })).toHaveAttribute('aria-busy', 'true'));
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
    finish();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('puts the server’s field errors on their fields, and the others above the form', async () => {
    const save = vi.fn(async () => {
      throw new ApiError({
        status: 400,
        code: 'validation_failed',
        message: 'invalid',
        fields: [
          { field: 'port', message: 'must be between 1 and 65535' },
          { field: 'targets[0].host', message: 'is required' },
        ],
      });
    });
    const { user, onClosed } = setup(save);
    const dialog = await open(user);
    await user.type(within(dialog).getByLabelText('Name'), 'web');
    await user.type(within(dialog).getByLabelText('Port'), '70000');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('must be between 1 and 65535')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Port')).toHaveAttribute('aria-invalid', 'true');
    const alert = within(dialog).getByText('Not saved').closest<HTMLElement>('[role="alert"]')!;
    expect(alert).toHaveTextContent('Target 1 host: is required');
    expect(onClosed).not.toHaveBeenCalled();
  });

  it('asks before discarding typed changes, however the dialog is closed', async () => {
    const { user, onClosed } = setup();
    let dialog = await open(user);
    await user.type(within(dialog).getByLabelText('Name'), 'half-typed');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    let question = screen.getByRole('dialog', { name: 'Discard unsaved changes?' });
    expect(question).toHaveTextContent('not saved yet');
    // Keep editing: the question goes, the form and its text stay.
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Discard unsaved changes?' })).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('half-typed');
    expect(onClosed).not.toHaveBeenCalled();

    // Escape asks too; Escape again answers the question, not the form.
    within(dialog).getByLabelText('Name').focus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Discard unsaved changes?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Discard unsaved changes?' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'New thing' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    question = screen.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(question).getByRole('button', { name: 'Discard changes' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onClosed).toHaveBeenCalledTimes(1);
    // Discarded means gone: the form opens empty.
    dialog = await open(user);
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');
  });

  it('closes at once when nothing was typed', async () => {
    const { user, onClosed } = setup();
    const dialog = await open(user);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'New thing' })).toHaveFocus();
  });
});
