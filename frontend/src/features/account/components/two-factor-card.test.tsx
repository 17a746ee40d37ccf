import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TwoFactorStatus } from '@/lib/api-types';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import { TwoFactorCard } from './two-factor-card';

afterEach(() => vi.unstubAllGlobals());

const off: TwoFactorStatus = { totp: false, passkeys: 0, recoveryCodesLeft: 0, enrolled: false, required: false, passkeysAvailable: true };
const on: TwoFactorStatus = { ...off, totp: true, enrolled: true, recoveryCodesLeft: 10 };
const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ijkm-np${i}q`);

function setup(status: TwoFactorStatus, routes: MockRoute[] = [], passkeys: unknown[] = []) {
  const mock = mockFetch([
    ...routes,
    { path: '/api/admin/me/2fa', body: status },
    { path: '/api/admin/me/passkeys', body: { items: passkeys } },
  ]);
  const user = userEvent.setup();
  renderRoute(<TwoFactorCard />);
  return { ...mock, user };
}

describe('TwoFactorCard authenticator app', () => {
  it('enrols: QR code and secret, a confirming code, then the recovery codes once', async () => {
    const { calls, user } = setup(off, [
      { method: 'POST', path: '/api/admin/me/2fa/totp', body: { secret: 'JBSWY3DPEHPK3PXP', url: 'otpauth://totp/Gatehouse:admin?secret=JBSWY3DPEHPK3PXP', qrCode: 'data:image/png;base64,iVBORw0KGgo=' } },
      { method: 'POST', path: '/api/admin/me/2fa/totp/confirm', body: { recoveryCodes: codes } },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Set up authenticator app' }));
    expect(await screen.findByAltText('QR code for the authenticator app')).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(screen.getByLabelText('Secret')).toHaveValue('JBSWY3DPEHPK3PXP');

    await user.type(screen.getByLabelText('Code from the app'), '12345');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Enter the 6-digit code from the app')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/admin/me/2fa/totp/confirm')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Code from the app'));
    await user.type(screen.getByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(calls.find((c) => c.url === '/api/admin/me/2fa/totp/confirm')?.body).toEqual({ code: '123456' });
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
  });

  it("puts the server's verdict on the code field", async () => {
    const { user } = setup(off, [
      { method: 'POST', path: '/api/admin/me/2fa/totp', body: { secret: 'S', url: 'otpauth://x', qrCode: 'data:image/png;base64,AA==' } },
      {
        method: 'POST',
        path: '/api/admin/me/2fa/totp/confirm',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'code', message: 'is wrong; check the clock' }] } },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Set up authenticator app' }));
    await user.type(await screen.findByLabelText('Code from the app'), '000000');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('is wrong; check the clock')).toBeInTheDocument();
  });

  it('turns off with the current password, and shows a wrong one on its field', async () => {
    const { calls, user } = setup(on, [
      {
        method: 'DELETE',
        path: '/api/admin/me/2fa/totp',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'password', message: 'is wrong' }] } },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    await user.click(screen.getByRole('button', { name: 'Turn off authenticator app' }));
    expect(await screen.findByText('Enter your password or a code from the app')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Current password'), 'not-my-password');
    await user.click(screen.getByRole('button', { name: 'Turn off authenticator app' }));
    expect(await screen.findByText('is wrong')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ password: 'not-my-password' });
  });

  it('says when the panel requires a second factor', async () => {
    setup({ ...off, required: true });
    expect(await screen.findByText('Two-factor sign-in is required')).toBeInTheDocument();
  });

  it('regenerates the recovery codes after a confirmation', async () => {
    const { user } = setup(on, [{ method: 'POST', path: '/api/admin/me/2fa/recovery-codes', body: { recoveryCodes: codes } }]);
    expect(await screen.findByText('10 unused recovery codes left.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Generate new codes' }));
    await user.click(await screen.findByRole('button', { name: 'Generate' }));
    expect(await screen.findByRole('list', { name: 'Recovery codes' })).toBeInTheDocument();
  });
});

describe('TwoFactorCard passkeys', () => {
  const passkey = { id: 'p1', name: 'Work laptop', createdAt: '2026-01-01T12:00:00Z', lastUsedAt: null };

  it('lists passkeys and removes one after a confirmation', async () => {
    const { calls, user } = setup({ ...off, passkeys: 1, enrolled: true }, [{ method: 'DELETE', path: '/api/admin/me/passkeys/p1', status: 204 }], [passkey]);
    expect(await screen.findByText('Work laptop')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove passkey Work laptop' }));
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
  });

  it('renames a passkey', async () => {
    const { calls, user } = setup({ ...off, passkeys: 1, enrolled: true }, [{ method: 'PATCH', path: '/api/admin/me/passkeys/p1', body: { ...passkey, name: 'Desk key' } }], [passkey]);
    await user.click(await screen.findByRole('button', { name: 'Rename passkey Work laptop' }));
    const input = await screen.findByLabelText('Name');
    await user.clear(input);
    await user.type(input, 'Desk key');
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Desk key' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("says why passkeys are unavailable when the server can't offer them", async () => {
    setup({ ...off, passkeysAvailable: false, passkeysProblem: 'passkeys need PANEL_PUBLIC_URL' });
    expect(await screen.findByText('passkeys need PANEL_PUBLIC_URL')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
  });
});
