import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { LoginPage } from './login-page';

afterEach(() => vi.unstubAllGlobals());

const system = { path: '/api/system', body: { version: '0.1.0', managed: false, setupRequired: false } };

describe('LoginPage', () => {
  it("shows the server's lockout message on 429", async () => {
    mockFetch([
      system,
      {
        method: 'POST',
        path: '/api/admin/login',
        status: 429,
        headers: { 'Retry-After': '720' },
        body: { error: { code: 'rate_limited', message: 'too many failed sign-in attempts; try again in 12 minutes' } },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Sign-in temporarily locked')).toBeInTheDocument();
    expect(screen.getByText('Too many failed sign-in attempts; try again in 12 minutes.')).toBeInTheDocument();
  });

  it('falls back to a generic lockout message when the 429 has no envelope', async () => {
    mockFetch([system, { method: 'POST', path: '/api/admin/login', status: 429, body: 'busy' }]);
    const user = userEvent.setup();
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Sign-in temporarily locked')).toBeInTheDocument();
    expect(screen.getByText('Too many attempts. Try again later.')).toBeInTheDocument();
  });

  it('says the credentials are wrong on 401 without redirecting', async () => {
    mockFetch([system, { method: 'POST', path: '/api/admin/login', status: 401, body: { error: { code: 'unauthenticated', message: 'invalid credentials' } } }]);
    const user = userEvent.setup();
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The username or password is incorrect.')).toBeInTheDocument();
  });

  it('requires both fields before calling the API', async () => {
    const { calls } = mockFetch([system]);
    const user = userEvent.setup();
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your username')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('signs in and goes to the next page', async () => {
    mockFetch([system, { method: 'POST', path: '/api/admin/login', body: { user: { id: 'u1', username: 'admin' } } }]);
    const user = userEvent.setup();
    const { router } = renderRoute(<LoginPage />, { path: '/login', url: '/login?next=%2Fservices' });
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/services'));
  });
});

describe('LoginPage with SSO', () => {
  const withSso = (localPasswords: boolean) => ({
    path: '/api/system',
    body: { version: '0.1.0', managed: false, setupRequired: false, adminSso: true, localPasswords },
  });

  it('offers SSO next to the password form', async () => {
    mockFetch([withSso(true)]);
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    const link = await screen.findByRole('link', { name: 'Sign in with SSO' });
    expect(link).toHaveAttribute('href', '/api/admin/sso/start');
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByText('Your identity provider asks for any second factor.')).toBeInTheDocument();
  });

  it('hides the password form when local passwords are off and says how to get them back', async () => {
    mockFetch([withSso(false)]);
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('link', { name: 'Sign in with SSO' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.getByText('gatehouse admin local-passwords on')).toBeInTheDocument();
  });

  it('has no SSO button while SSO sign-in is off', async () => {
    mockFetch([system]);
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign in with SSO' })).not.toBeInTheDocument();
  });

  it('shows why the SSO sign-in came back, for known codes only', async () => {
    mockFetch([withSso(true)]);
    renderRoute(<LoginPage />, { path: '/login', url: '/login?error=sso_not_allowed' });
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
    expect(screen.getByText(/no sign-in rule of this panel lets you in/)).toBeInTheDocument();
  });

  it('words an unknown code generically instead of echoing it', async () => {
    mockFetch([withSso(true)]);
    renderRoute(<LoginPage />, { path: '/login', url: '/login?error=%3Cb%3Eclick+here%3C%2Fb%3E' });
    expect(await screen.findByText('The sign-in could not be completed. Try again.')).toBeInTheDocument();
    expect(screen.queryByText(/click here/)).not.toBeInTheDocument();
  });

  it('offers "Create an account" only when self-registration is on', async () => {
    mockFetch([system, { path: '/api/registration', body: { available: true } }]);
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
  });

  it('hides "Create an account" when self-registration is off', async () => {
    mockFetch([system, { path: '/api/registration', body: { available: false } }, { path: '/api/password-reset', body: { available: true } }]);
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('link', { name: 'Forgot your password?' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
  });
});
