import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminAccount } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { AdminsPage } from './admins-page';

afterEach(() => vi.unstubAllGlobals());

const admin: AdminAccount = { id: 'u1', username: 'admin', role: 'admin', disabled: false, lastSignInAt: '2026-01-01T10:00:00Z', createdAt: '2026-01-01T00:00:00Z' };
const eve: AdminAccount = { id: 'u2', username: 'eve', role: 'viewer', disabled: false, lastSignInAt: null, createdAt: '2026-01-02T00:00:00Z' };
const me = (role: 'admin' | 'viewer') => ({ path: '/api/admin/me', body: { user: { id: role === 'admin' ? 'u1' : 'u2', username: role === 'admin' ? 'admin' : 'eve', role } } });
const lastAdmin = {
  error: { code: 'conflict', message: 'the panel needs at least one active administrator with the admin role', fields: [{ field: 'role', message: 'the panel needs at least one active administrator with the admin role' }] },
};

describe('AdminsPage', () => {
  it('adds an administrator with a role, checking the form first and mapping server errors', async () => {
    const { calls } = mockFetch([
      me('admin'),
      { path: '/api/admin/users', body: { items: [admin] } },
      {
        method: 'POST',
        path: '/api/admin/users',
        status: 409,
        body: { error: { code: 'conflict', message: 'administrator "eve" already exists', fields: [{ field: 'username', message: 'administrator "eve" already exists' }] } },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<AdminsPage />);
    await user.click(await screen.findByRole('button', { name: 'Add administrator' }));
    const dialog = screen.getByRole('dialog', { name: 'Add administrator' });
    await user.type(within(dialog).getByLabelText('Username'), 'eve smith');
    await user.type(within(dialog).getByLabelText('Password'), 'short');
    await user.type(within(dialog).getByLabelText('Confirm password'), 'other');
    await user.click(within(dialog).getByRole('button', { name: 'Add administrator' }));
    expect(await within(dialog).findByText('1-64 letters, digits or . _ @ -')).toBeInTheDocument();
    expect(within(dialog).getByText('At least 10 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Passwords do not match')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(within(dialog).getByLabelText('Username'));
    await user.type(within(dialog).getByLabelText('Username'), 'eve');
    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'correct-horse-battery');
    await user.clear(within(dialog).getByLabelText('Confirm password'));
    await user.type(within(dialog).getByLabelText('Confirm password'), 'correct-horse-battery');
    expect(within(dialog).getByLabelText('Role')).toHaveValue('viewer');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Add administrator' }));
    expect(await within(dialog).findByText('administrator "eve" already exists')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ username: 'eve', password: 'correct-horse-battery', role: 'admin' });
  }, 30_000);

  it('shows the server refusal to demote the last admin, and removes after confirmation', async () => {
    const { calls } = mockFetch([
      me('admin'),
      { path: '/api/admin/users', body: { items: [admin, eve] } },
      { method: 'PATCH', path: '/api/admin/users/u1', status: 409, body: lastAdmin },
      { method: 'DELETE', path: '/api/admin/users/u2', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<AdminsPage />);
    expect(await screen.findByText('(you)')).toBeInTheDocument();
    await user.selectOptions(await screen.findByLabelText('Role of admin'), 'viewer');
    expect(await screen.findByRole('alert')).toHaveTextContent('The panel needs at least one active administrator with the admin role.');
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ role: 'viewer' });

    await user.click(screen.getByRole('button', { name: 'Remove eve' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Remove eve?' })).getByRole('button', { name: 'Remove administrator' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/users/u2')).toBe(true));
  }, 30_000);

  it('disables after confirmation and sets another administrator’s password', async () => {
    const { calls } = mockFetch([
      me('admin'),
      { path: '/api/admin/users', body: { items: [admin, eve] } },
      { method: 'PATCH', path: '/api/admin/users/u2', body: { ...eve, disabled: true } },
      { method: 'PUT', path: '/api/admin/users/u2/password', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<AdminsPage />);
    await user.click(await screen.findByRole('button', { name: 'Disable eve' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Disable eve?' })).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ disabled: true }));

    await user.click(screen.getByRole('button', { name: 'Set password of eve' }));
    const dialog = screen.getByRole('dialog', { name: 'Set a new password for eve' });
    await user.type(within(dialog).getByLabelText('New password'), 'a-brand-new-password');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'a-brand-new-password');
    await user.click(within(dialog).getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ password: 'a-brand-new-password' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }, 30_000);

  it('shows a viewer the list without any write control', async () => {
    mockFetch([me('viewer'), { path: '/api/admin/users', body: { items: [admin, eve] } }]);
    renderRoute(<AdminsPage />);
    expect(await screen.findByText('eve')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Viewer').length).toBeGreaterThan(0));
    expect(screen.queryByRole('button', { name: 'Add administrator' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Disable|Remove|Set password)/ })).not.toBeInTheDocument();
  });
});
