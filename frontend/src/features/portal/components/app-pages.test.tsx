import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { AppConsentPage, AppRefusedPage, DevicePage } from './app-pages';

afterEach(() => vi.unstubAllGlobals());

const app = { id: 'grafana', name: 'Grafana', logoUrl: '' };

describe('AppConsentPage', () => {
  it('explains each scope and sends the browser on when allowed', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { calls } = mockFetch([
      { path: '/api/portal/oidc/requests/r1', body: { app, scopes: ['openid', 'email', 'groups'], refused: false } },
      { method: 'POST', path: '/api/portal/oidc/requests/r1/consent', body: { redirect: '/oidc/login?id=r1' } },
    ]);
    renderRoute(<AppConsentPage />, { path: '/apps/consent', url: '/apps/consent?id=r1' });
    expect(await screen.findByRole('heading', { name: 'Sign in to Grafana?' })).toBeInTheDocument();
    expect(screen.getByText('See your e-mail address')).toBeInTheDocument();
    expect(screen.getByText('See the groups you are in')).toBeInTheDocument();
    expect(screen.queryByText('See your name and username')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/oidc/login?id=r1'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ approve: true });
  });

  it('shows the refusal when the person is outside the app’s groups', async () => {
    mockFetch([{ path: '/api/portal/oidc/requests/r2', body: { app, scopes: ['openid'], refused: true } }]);
    renderRoute(<AppConsentPage />, { path: '/apps/consent', url: '/apps/consent?id=r2' });
    expect(await screen.findByRole('heading', { name: 'You cannot use Grafana' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Allow' })).not.toBeInTheDocument();
  });
});

describe('AppRefusedPage', () => {
  it('says the sign-in expired when there is nothing to show', async () => {
    mockFetch([]);
    renderRoute(<AppRefusedPage />, { path: '/apps/refused', url: '/apps/refused?reason=expired' });
    expect(await screen.findByRole('heading', { name: 'This sign-in is no longer valid' })).toBeInTheDocument();
  });
});

describe('AppRefusedPage with a second factor missing', () => {
  it('asks the person to add a second factor on their account page', async () => {
    mockFetch([{ path: '/api/portal/oidc/requests/r3', body: { app, scopes: ['openid'], refused: false, secondFactorMissing: true } }]);
    renderRoute(<AppRefusedPage />, { path: '/apps/refused', url: '/apps/refused?id=r3' });
    expect(await screen.findByRole('heading', { name: 'Grafana asks for a second factor' })).toBeInTheDocument();
    expect(
      screen.getByText('Sign in to Grafana needs a passkey or an authenticator app, and your account has none yet. Add one on your account page, then open Grafana again.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your account page' })).toHaveAttribute('href', '/account');
    expect(screen.queryByText('You cannot use Grafana')).not.toBeInTheDocument();
  });

  it('keeps the group refusal when both hold', async () => {
    mockFetch([{ path: '/api/portal/oidc/requests/r4', body: { app, scopes: ['openid'], refused: true, secondFactorMissing: true } }]);
    renderRoute(<AppRefusedPage />, { path: '/apps/refused', url: '/apps/refused?id=r4' });
    expect(await screen.findByRole('heading', { name: 'You cannot use Grafana' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to your account page' })).not.toBeInTheDocument();
  });

  it('shows no Allow button on the consent page either', async () => {
    mockFetch([{ path: '/api/portal/oidc/requests/r5', body: { app, scopes: ['openid'], refused: false, secondFactorMissing: true } }]);
    renderRoute(<AppConsentPage />, { path: '/apps/consent', url: '/apps/consent?id=r5' });
    expect(await screen.findByRole('heading', { name: 'Grafana asks for a second factor' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Allow' })).not.toBeInTheDocument();
  });
});

describe('DevicePage', () => {
  it('looks up the typed code and allows the device', async () => {
    const { calls } = mockFetch([
      { path: '/api/portal/oidc/device?userCode=BCDF-GHJK', body: { app: { ...app, name: 'Television' }, scopes: ['openid', 'profile'] } },
      { method: 'POST', path: '/api/portal/oidc/device', body: { approved: true } },
    ]);
    renderRoute(<DevicePage />, { path: '/apps/device', url: '/apps/device' });
    fireEvent.change(await screen.findByLabelText('Code'), { target: { value: 'BCDF-GHJK' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Connect Television?' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    expect(await screen.findByRole('heading', { name: 'Device connected' })).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ userCode: 'BCDF-GHJK', approve: true });
  });

  it('says when no device waits for the code', async () => {
    mockFetch([
      { path: /\/api\/portal\/oidc\/device\?userCode=/, status: 422, body: { error: { code: 'validation_failed', message: 'userCode: is not a code waiting for an answer' } } },
    ]);
    renderRoute(<DevicePage />, { path: '/apps/device', url: '/apps/device?user_code=WXYZ' });
    expect(await screen.findByText('No device is waiting for this code')).toBeInTheDocument();
  });

  it('asks for a second factor instead of offering Allow when the person has none', async () => {
    const tv = { ...app, name: 'Television' };
    mockFetch([{ path: '/api/portal/oidc/device?userCode=BCDF-GHJK', body: { app: tv, scopes: ['openid'], secondFactorMissing: true, signInAgain: '' } }]);
    renderRoute(<DevicePage />, { path: '/apps/device', url: '/apps/device?user_code=BCDF-GHJK' });
    expect(await screen.findByRole('heading', { name: 'Television asks for a second factor' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your account page' })).toHaveAttribute('href', '/account');
    expect(screen.queryByRole('button', { name: 'Allow' })).not.toBeInTheDocument();
  });

  it('sends the browser to sign in again when the app asks for it', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const again = '/login?stepup=1&rd=%2Fapps%2Fdevice%3Fuser_code%3DBCDF-GHJK';
    mockFetch([{ path: '/api/portal/oidc/device?userCode=BCDF-GHJK', body: { app: { ...app, name: 'Television' }, scopes: ['openid'], secondFactorMissing: false, signInAgain: again } }]);
    renderRoute(<DevicePage />, { path: '/apps/device', url: '/apps/device?user_code=BCDF-GHJK' });
    expect(await screen.findByRole('heading', { name: 'Television asks you to sign in again with a second factor' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Allow' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(assign).toHaveBeenCalledWith(again);
  });

  it.each(['//evil.example/login', 'https://evil.example/login', 'javascript:alert(1)', '/\\evil.example/', '/.//evil.example/'])('ignores a sign-in address off this portal: %s', async (signInAgain) => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    mockFetch([{ path: '/api/portal/oidc/device?userCode=BCDF-GHJK', body: { app: { ...app, name: 'Television' }, scopes: ['openid'], secondFactorMissing: false, signInAgain } }]);
    renderRoute(<DevicePage />, { path: '/apps/device', url: '/apps/device?user_code=BCDF-GHJK' });
    expect(await screen.findByRole('heading', { name: 'Connect Television?' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in again' })).not.toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the message of a refused approval', async () => {
    mockFetch([
      { path: '/api/portal/oidc/device?userCode=BCDF-GHJK', body: { app: { ...app, name: 'Television' }, scopes: ['openid'], secondFactorMissing: false, signInAgain: '' } },
      { method: 'POST', path: '/api/portal/oidc/device', status: 403, body: { error: { code: 'forbidden', message: 'Television asks for a second factor' } } },
    ]);
    renderRoute(<DevicePage />, { path: '/apps/device', url: '/apps/device?user_code=BCDF-GHJK' });
    fireEvent.click(await screen.findByRole('button', { name: 'Allow' }));
    expect(await screen.findByText('Your answer was not saved')).toBeInTheDocument();
    expect(screen.getByText('Television asks for a second factor')).toBeInTheDocument();
  });
});
