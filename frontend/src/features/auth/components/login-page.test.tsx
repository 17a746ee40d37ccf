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
