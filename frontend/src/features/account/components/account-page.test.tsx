import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { AdminSession } from '@/lib/api-types';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import { AccountPage } from './account-page';

afterEach(() => vi.unstubAllGlobals());

const chromeLinux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const firefoxMac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const current: AdminSession = {
  id: 'a1',
  current: true,
  portal: false,
  userAgent: chromeLinux,
  address: '192.0.2.10',
  createdAt: ago(3_600_000),
  lastSeenAt: ago(0),
  expiresAt: ago(-86_400_000),
};
const other: AdminSession = {
  id: 'a2',
  current: false,
  portal: false,
  userAgent: firefoxMac,
  address: '2001:db8::7',
  createdAt: ago(2 * 86_400_000),
  lastSeenAt: ago(3 * 3_600_000),
  expiresAt: ago(-86_400_000),
};

const me = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin' } } };

// The two-factor card asks for these on every render of the page.
const twoFactor: MockRoute[] = [
  {
    path: '/api/admin/me/2fa',
    body: { totp: false, passkeys: 0, recoveryCodesLeft: 0, enrolled: false, required: false, passkeysAvailable: true },
  },
  { path: '/api/admin/me/passkeys', body: { items: [] } },
  { path: '/api/admin/me/app-passwords', body: { items: [] } },
];

function setup(routes: MockRoute[]) {
  const mock = mockFetch([me, ...routes, ...twoFactor]);
  const user = userEvent.setup();
  renderRoute(
    <>
      <AccountPage />
      <Toaster />
    </>,
  );
  return { ...mock, user };
}

const sessions = (items: AdminSession[]): MockRoute => ({ path: '/api/admin/me/sessions', body: { items } });

describe('AccountPage password form', () => {
  it('checks the new password on the client before calling the API', async () => {
    const { calls, user } = setup([sessions([current])]);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Enter your current password')).toBeInTheDocument();
    expect(screen.getByText('At least 10 characters', { selector: '.field-error span' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('changes the password, says so, clears the form and refreshes the sessions', async () => {
    const { calls, user } = setup([sessions([current, other]), { method: 'PUT', path: '/api/admin/me/password', status: 204 }]);
    expect(await screen.findByText('Firefox on macOS')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('Password changed; your other sessions were signed out')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ currentPassword: 'old-password', newPassword: 'new-password-1' });
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm new password')).toHaveValue('');
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/admin/me/sessions')).toHaveLength(2));
  });

  it.each([
    ['currentPassword', 'Current password', 'is incorrect'],
    ['newPassword', 'New password', 'must be between 10 and 256 characters'],
  ])('shows a 422 on %s on its field', async (field, label, message) => {
    const { user } = setup([
      sessions([current]),
      {
        method: 'PUT',
        path: '/api/admin/me/password',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'validation failed', fields: [{ field, message }] } },
      },
    ]);
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    const input = screen.getByLabelText(label);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(input).toHaveFocus();
    // Nothing is cleared on failure.
    expect(screen.getByLabelText('Current password')).toHaveValue('old-password');
    expect(screen.queryByText('Password not changed')).not.toBeInTheDocument();
  });

  it("shows the server's message when too many attempts were made", async () => {
    const { user } = setup([
      sessions([current]),
      {
        method: 'PUT',
        path: '/api/admin/me/password',
        status: 429,
        headers: { 'Retry-After': '600' },
        body: { error: { code: 'rate_limited', message: 'too many failed sign-in attempts; try again in 10 minutes' } },
      },
    ]);
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many attempts');
    expect(alert).toHaveTextContent('Too many failed sign-in attempts; try again in 10 minutes.');
  });
});

describe('AccountPage sessions', () => {
  it('lists sessions with a readable device, the full user agent in a title and this device first and marked', async () => {
    setup([sessions([other, current])]);
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Chrome on Linux')).toHaveAttribute('title', chromeLinux);
    expect(within(rows[0]!).getByText('This device')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('192.0.2.10')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: /^Sign out/ })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('Firefox on macOS')).toHaveAttribute('title', firefoxMac);
    expect(within(rows[1]!).queryByText('This device')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('2001:db8::7')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('3 hours ago')).toBeInTheDocument();
  });

  it('signs out one other session after confirmation', async () => {
    const { calls, user } = setup([sessions([current, other]), { method: 'DELETE', path: '/api/admin/me/sessions/a2', status: 204 }]);
    await user.click(await screen.findByRole('button', { name: 'Sign out Firefox on macOS at 2001:db8::7' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out this session?' });
    expect(dialog).toHaveTextContent('Firefox on macOS at 2001:db8::7 will have to sign in again.');
    // Cancel first: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Sign out Firefox on macOS at 2001:db8::7' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/me/sessions/a2')).toBe(true));
    expect(await screen.findByText('Session signed out')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('signs out all other sessions after confirmation', async () => {
    const { calls, user } = setup([sessions([current, other]), { method: 'DELETE', path: '/api/admin/me/sessions', status: 204 }]);
    await screen.findByText('Firefox on macOS');
    await user.click(screen.getByRole('button', { name: 'Sign out all other sessions' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out all other sessions?' });
    expect(dialog).toHaveTextContent('1 other session will have to sign in again. This device stays signed in.');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out others' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/me/sessions')).toBe(true));
    expect(await screen.findByText('Other sessions signed out')).toBeInTheDocument();
  });

  it('offers nothing to sign out when this is the only session', async () => {
    setup([sessions([current])]);
    await screen.findByText('This device');
    expect(screen.getByRole('button', { name: 'Sign out all other sessions' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Sign out .* at / })).not.toBeInTheDocument();
  });

  it('shows the loading state, then an error with a retry', async () => {
    const { calls, user } = setup([
      { path: '/api/admin/me/sessions', status: 500, body: { error: { code: 'internal', message: 'internal error' } } },
    ]);
    expect(screen.getAllByLabelText('Loading').length).toBeGreaterThan(0);
    expect(await screen.findByText('Could not load this data')).toBeInTheDocument();
    expect(screen.getByText('internal error')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/admin/me/sessions')).toHaveLength(2));
  });

  it('shows an empty state when the list is empty', async () => {
    setup([sessions([])]);
    expect(await screen.findByText('No sessions')).toBeInTheDocument();
  });
});
