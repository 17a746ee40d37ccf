import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TwoFactorStatus } from '@/lib/api-types';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import { TwoFactorCard } from './two-factor-card';

afterEach(() => vi.unstubAllGlobals());

const on: TwoFactorStatus = { totp: true, passkeys: 1, recoveryCodesLeft: 3, enrolled: true, required: false, passkeysAvailable: true };
const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ijkm-np${i}q`);
const passkey = { id: 'p1', name: 'Work laptop', createdAt: '2026-01-01T12:00:00Z', lastUsedAt: null };
const stale: MockRoute['body'] = {
  error: { code: 'reauthentication_required', message: 'confirm it is you first: enter your password, a code from your authenticator app or use a passkey' },
};

function setup(routes: MockRoute[]) {
  const mock = mockFetch([
    ...routes,
    { path: '/api/admin/me/2fa', body: on },
    { path: '/api/admin/me/passkeys', body: { items: [passkey] } },
  ]);
  const user = userEvent.setup();
  renderRoute(<TwoFactorCard />);
  return { ...mock, user };
}

const regenerate = (status = 403): MockRoute[] => [
  { method: 'POST', path: '/api/admin/me/2fa/recovery-codes', status, body: stale, times: 1 },
  { method: 'POST', path: '/api/admin/me/2fa/recovery-codes', body: { recoveryCodes: codes } },
];

async function askForCodes(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Generate new codes' }));
  await user.click(await screen.findByRole('button', { name: 'Generate' }));
  return screen.findByRole('dialog', { name: 'Confirm it is you' });
}

describe('ReauthDialog', () => {
  it('asks for the password when the server wants a fresh proof, then makes the change', async () => {
    const { calls, user } = setup([...regenerate(), { method: 'POST', path: '/api/admin/me/reauthenticate', status: 204 }]);
    const dialog = await askForCodes(user);
    await user.type(within(dialog).getByLabelText('Your password'), 'correct-horse-battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/admin/me/reauthenticate')?.body).toEqual({ password: 'correct-horse-battery' });
    expect(calls.filter((c) => c.url === '/api/admin/me/2fa/recovery-codes')).toHaveLength(2);
  });

  it('takes a code from the app instead', async () => {
    const { calls, user } = setup([...regenerate(), { method: 'POST', path: '/api/admin/me/reauthenticate', status: 204 }]);
    const dialog = await askForCodes(user);
    await user.type(within(dialog).getByLabelText(/Or a code from the app/), '123 456');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('list', { name: 'Recovery codes' });
    expect(calls.find((c) => c.url === '/api/admin/me/reauthenticate')?.body).toEqual({ code: '123456' });
  });

  it('shows a wrong password on its field and stays open; nothing is retried', async () => {
    const { calls, user } = setup([
      ...regenerate(),
      {
        method: 'POST',
        path: '/api/admin/me/reauthenticate',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'password', message: 'is wrong' }] } },
      },
    ]);
    const dialog = await askForCodes(user);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Enter your password or a code from the app')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/admin/me/reauthenticate')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Your password'), 'not-my-password');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('is wrong')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Your password')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.url === '/api/admin/me/2fa/recovery-codes')).toHaveLength(1);
  });

  it('says when too many wrong answers block it', async () => {
    const { user } = setup([
      ...regenerate(),
      {
        method: 'POST',
        path: '/api/admin/me/reauthenticate',
        status: 429,
        headers: { 'Retry-After': '600' },
        body: { error: { code: 'rate_limited', message: 'too many failed sign-in attempts' } },
      },
    ]);
    const dialog = await askForCodes(user);
    await user.type(within(dialog).getByLabelText('Your password'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Too many failed attempts. Try again in 10 minutes.')).toBeInTheDocument();
  });

  it('cancelled: the change is not made and the dialog closes', async () => {
    const { calls, user } = setup(regenerate());
    const dialog = await askForCodes(user);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument());
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/admin/me/2fa/recovery-codes')).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/api/admin/me/reauthenticate')).toHaveLength(0);
  });

  it('removing a passkey asks too, then removes it', async () => {
    const { calls, user } = setup([
      { method: 'DELETE', path: '/api/admin/me/passkeys/p1', status: 403, body: stale, times: 1 },
      { method: 'DELETE', path: '/api/admin/me/passkeys/p1', status: 204 },
      { method: 'POST', path: '/api/admin/me/reauthenticate', status: 204 },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Remove passkey Work laptop' }));
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await user.type(within(dialog).getByLabelText('Your password'), 'correct-horse-battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE' && c.url === '/api/admin/me/passkeys/p1')).toHaveLength(2));
  });
});
