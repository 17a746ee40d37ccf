import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { AdminSession } from '@/lib/api-types';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import { PortalAccountPage } from './account-page';
import { servicesBySignIn } from './account-sessions-card';

afterEach(() => vi.unstubAllGlobals());

const chromeAndroid = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const firefoxWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const phone: AdminSession = {
  id: 'p1', current: true, portal: true, userAgent: chromeAndroid, address: '192.0.2.10',
  createdAt: ago(3_600_000), lastSeenAt: ago(0), expiresAt: ago(-86_400_000),
};
const laptop: AdminSession = {
  id: 'p2', current: false, portal: true, userAgent: firefoxWindows, address: '198.51.100.7',
  createdAt: ago(2 * 86_400_000), lastSeenAt: ago(3_600_000), expiresAt: ago(-86_400_000),
};
const serviceSession = (id: string, serviceName: string, portalSessionId: string) => ({
  id, serviceId: `svc-${serviceName}`, serviceName, portalSessionId,
  createdAt: ago(600_000), lastSeenAt: ago(300_000), expiresAt: ago(-3_600_000),
});

const base = (twoFactor: Record<string, unknown> = {}): MockRoute[] => [
  { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'none' } } },
  { path: '/api/admin/me/sessions', body: { items: [laptop, phone] } },
  { path: '/api/portal/sessions', body: { items: [serviceSession('v1', 'Photos', 'p1'), serviceSession('v2', 'Mail', 'p1'), serviceSession('v3', 'Mail', 'p2')] } },
  {
    path: '/api/admin/me/2fa',
    body: { totp: false, passkeys: 0, recoveryCodesLeft: 0, enrolled: false, required: false, passkeysAvailable: true, ...twoFactor },
  },
  { path: '/api/admin/me/passkeys', body: { items: [] } },
  { path: '/api/admin/me/app-passwords', body: { items: [] } },
];

function setup(routes: MockRoute[], twoFactor?: Record<string, unknown>) {
  const mock = mockFetch([...routes, ...base(twoFactor)]);
  const user = userEvent.setup();
  renderRoute(
    <>
      <PortalAccountPage />
      <Toaster />
    </>,
    { path: '/account', url: '/account' },
  );
  return { ...mock, user };
}

describe('servicesBySignIn', () => {
  it('groups service sessions under their sign-in, by name', () => {
    const out = servicesBySignIn([serviceSession('a', 'Photos', 'p1'), serviceSession('b', 'Mail', 'p1'), serviceSession('c', 'Wiki', 'p2')]);
    expect(out.get('p1')?.map((s) => s.serviceName)).toEqual(['Mail', 'Photos']);
    expect(out.get('p2')?.map((s) => s.id)).toEqual(['c']);
  });
});

describe('PortalAccountPage', () => {
  it('speaks to a person, not to an administrator', async () => {
    setup([]);
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeInTheDocument();
    expect(await screen.findByText('ann', { selector: 'strong' })).toBeInTheDocument();
    for (const title of ['Password', 'Ways to sign in', "Where you're signed in", 'App passwords']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    await screen.findByText('Firefox on Windows');
    expect(document.body.textContent).not.toMatch(/administrator|panel|session/i);
  });

  it('shows each device with the services opened from it, this device first', async () => {
    setup([]);
    const devices = await screen.findByRole('list', { name: 'Your devices' });
    const items = within(devices).getAllByRole('listitem', { name: /on / });
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual(['Chrome on Android (this device)', 'Firefox on Windows']);
    const onPhone = within(items[0]!).getByRole('list', { name: 'Services opened on Chrome on Android' });
    expect(within(onPhone).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('Mail'),
      expect.stringContaining('Photos'),
    ]);
    expect(within(items[1]!).getByText('Mail')).toBeInTheDocument();
  });

  it('signs out of one service, and signs another device out', async () => {
    const { calls, user } = setup([
      { method: 'DELETE', path: '/api/portal/sessions/v1', status: 204 },
      { method: 'DELETE', path: '/api/admin/me/sessions/p2', status: 204 },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Sign out of Photos on Chrome on Android' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of Photos?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/portal/sessions/v1')).toBe(true));
    expect(await screen.findByText('Signed out of that service')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign out Firefox on Windows' }));
    const other = await screen.findByRole('dialog', { name: 'Sign out that device?' });
    expect(other).toHaveTextContent('Firefox on Windows will be signed out, and of every service opened from it.');
    await user.click(within(other).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/me/sessions/p2')).toBe(true));
  });

  it('signs out everywhere and goes to the sign-in page', async () => {
    const { calls, user } = setup([{ method: 'POST', path: '/api/admin/logout?everywhere=1', status: 204 }]);
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/admin/logout?everywhere=1')).toBe(true));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
  });

  it('changes the password after checking the two new ones match', async () => {
    const { calls, user } = setup([{ method: 'PUT', path: '/api/admin/me/password', status: 204 }]);
    await user.type(await screen.findByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('New password again'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The two new passwords are not the same')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.clear(screen.getByLabelText('New password again'));
    await user.type(screen.getByLabelText('New password again'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed. You were signed out on your other devices.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ currentPassword: 'old-password', newPassword: 'new-password-1' });
  });

  it('asks "is it you?" before setting up an authenticator app, then shows the picture to scan', async () => {
    const { calls, user } = setup([
      {
        method: 'POST', path: '/api/admin/me/2fa/totp', status: 403, times: 1,
        body: { error: { code: 'reauthentication_required', message: 'confirm who you are first' } },
      },
      { method: 'POST', path: '/api/admin/me/reauthenticate', status: 204 },
      { method: 'POST', path: '/api/admin/me/2fa/totp', body: { secret: 'JBSWY3DPEHPK3PXP', url: 'otpauth://totp/x', qrCode: 'data:image/png;base64,AA==' } },
      { method: 'POST', path: '/api/admin/me/2fa/totp/confirm', body: { recoveryCodes: ['aaaa-bbbb', 'cccc-dddd'] } },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const proof = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.type(within(proof).getByLabelText('Your password'), 'my-password');
    await user.click(within(proof).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByAltText('QR code to scan with the authenticator app')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/admin/me/reauthenticate')?.body).toEqual({ password: 'my-password' });
    await user.type(screen.getByLabelText('6-digit code from the app'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Finish set-up' }));
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['aaaa-bbbb', 'cccc-dddd']);
    expect(calls.find((c) => c.url === '/api/admin/me/2fa/totp/confirm')?.body).toEqual({ code: '123456' });
  });

  it('lists passkeys and removes one after asking', async () => {
    const { calls, user } = setup(
      [
        { path: '/api/admin/me/passkeys', body: { items: [{ id: 'k1', name: 'My phone', createdAt: ago(86_400_000), lastUsedAt: null }] } },
        { method: 'DELETE', path: '/api/admin/me/passkeys/k1', status: 204 },
      ],
      { passkeys: 1, enrolled: true, recoveryCodesLeft: 3 },
    );
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('My phone')).toBeInTheDocument();
    expect(screen.getByText(/You have 3 left/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove passkey My phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/me/passkeys/k1')).toBe(true));
  });

  it('says plainly when passkeys cannot be added here', async () => {
    setup([], { passkeysAvailable: false, passkeysProblem: 'passkeys on the portal need its host' });
    expect(await screen.findByText("Passkeys can't be added here right now")).toBeInTheDocument();
  });

  it('creates an app password and shows it once, with the username to use', async () => {
    const { calls, user } = setup([
      { method: 'POST', path: '/api/admin/me/app-passwords', status: 201, body: { id: 'a1', name: 'Phone calendar', secret: 'gha_secret-value', createdAt: ago(0), lastUsedAt: null } },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Create app password' }));
    expect(await screen.findByText('Give it a name, such as "Phone calendar".')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name of the app'), 'Phone calendar');
    await user.click(screen.getByRole('button', { name: 'Create app password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Password for "Phone calendar"' });
    expect(within(dialog).getByDisplayValue('gha_secret-value')).toBeInTheDocument();
    expect(within(dialog).getByText('ann')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/admin/me/app-passwords')?.body).toEqual({ name: 'Phone calendar' });
  });
});
