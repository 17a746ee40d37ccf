import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import { LoginPage } from './login-page';

afterEach(() => vi.unstubAllGlobals());

const system = { path: '/api/system', body: { version: '0.1.0', managed: false, setupRequired: false } };
const pending = (methods: string[]): MockRoute => ({ method: 'POST', path: '/api/admin/login', body: { secondFactor: { methods } } });
const signedIn = { user: { id: 'u1', username: 'admin' } };

async function password(routes: MockRoute[], url = '/login') {
  const mock = mockFetch([system, ...routes]);
  const user = userEvent.setup();
  const { router } = renderRoute(<LoginPage />, { path: '/login', url });
  await user.type(screen.getByLabelText('Username'), 'admin');
  await user.type(screen.getByLabelText('Password'), 'correct-horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return { ...mock, user, router };
}

describe('LoginPage second factor', () => {
  it('asks for the code after the password and signs in with it', async () => {
    const { calls, user, router } = await password(
      [pending(['totp', 'recovery']), { method: 'POST', path: '/api/admin/login/totp', body: signedIn }],
      '/login?next=%2Fservices',
    );
    expect(await screen.findByText('Two-factor sign-in')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code from your app')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/services'));
    expect(calls.find((c) => c.url === '/api/admin/login/totp')?.body).toEqual({ code: '123456' });
  });

  it('says a wrong code is wrong and stays on the step', async () => {
    const { user } = await password([
      pending(['totp', 'recovery']),
      { method: 'POST', path: '/api/admin/login/totp', status: 401, body: { error: { code: 'unauthenticated', message: 'wrong code' } } },
    ]);
    await user.type(await screen.findByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is not right.')).toBeInTheDocument();
    expect(screen.getByLabelText('Authentication code')).toBeInTheDocument();
  });

  it('takes a recovery code instead', async () => {
    const { calls, user, router } = await password([
      pending(['totp', 'recovery']),
      { method: 'POST', path: '/api/admin/login/recovery', body: signedIn },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcd-efgh-ijkm-npqr');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.find((c) => c.url === '/api/admin/login/recovery')?.body).toEqual({ code: 'abcd-efgh-ijkm-npqr' });
  });

  it('sends an expired sign-in back to the password', async () => {
    const { user } = await password([
      pending(['totp']),
      { method: 'POST', path: '/api/admin/login/totp', status: 401, body: { error: { code: 'unauthenticated', message: 'this sign-in has expired; start again' } } },
    ]);
    await user.type(await screen.findByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Sign-in expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use a recovery code' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
  });
});
