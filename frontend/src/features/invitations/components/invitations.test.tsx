import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { ForgotPasswordPage } from './forgot-password-page';
import { InvitePage } from './invite-page';
import { ResetPasswordPage } from './reset-password-page';

afterEach(() => vi.unstubAllGlobals());

const preview = { username: 'ann', displayName: 'Ann', email: 'ann@example.com', expiresAt: '2030-01-01T00:00:00Z', passkeysAvailable: false };

describe('InvitePage', () => {
  it('lets the invited person choose a password and then sign in', async () => {
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/invitations/preview', body: preview },
      { method: 'POST', path: '/api/invitations/accept', body: { username: 'ann' } },
    ]);
    const user = userEvent.setup();
    renderRoute(<InvitePage />, { path: '/invite/:token', url: '/invite/tok123' });
    expect(await screen.findByRole('heading', { name: 'Welcome, Ann' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByText('At least 10 characters')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Password/));
    await user.type(screen.getByLabelText(/^Password/), 'a-long-password');
    await user.type(screen.getByLabelText('Type the password again'), 'a-long-password');
    await user.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    const accept = calls.find((c) => c.url.endsWith('/api/invitations/accept'))!;
    expect(accept.body).toEqual({ token: 'tok123', password: 'a-long-password' });
  });

  it('says plainly when the link no longer works', async () => {
    mockFetch([{ method: 'POST', path: '/api/invitations/preview', status: 404, body: { error: { code: 'not_found', message: 'invitation not found' } } }]);
    renderRoute(<InvitePage />, { path: '/invite/:token', url: '/invite/used' });
    expect(await screen.findByRole('heading', { name: 'This invitation does not work' })).toBeInTheDocument();
  });
});

describe('ForgotPasswordPage', () => {
  it('asks for a link and answers the same whoever is asked for', async () => {
    const { calls } = mockFetch([
      { path: '/api/password-reset', body: { available: true } },
      { method: 'POST', path: '/api/password-reset/request', status: 202 },
    ]);
    const user = userEvent.setup();
    renderRoute(<ForgotPasswordPage />);
    await user.type(await screen.findByLabelText('Username or e-mail address'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/If an account matches/)).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/password-reset/request'))).toBe(true));
  });

  it('is not offered without mail', async () => {
    mockFetch([{ path: '/api/password-reset', body: { available: false } }]);
    renderRoute(<ForgotPasswordPage />);
    expect(await screen.findByText('Resetting a password by e-mail is not set up here.')).toBeInTheDocument();
  });

  it('shows the wait when asked too often', async () => {
    mockFetch([
      { path: '/api/password-reset', body: { available: true } },
      { method: 'POST', path: '/api/password-reset/request', status: 429, body: { error: { code: 'rate_limited', message: 'Too many reset links were asked from your network. Wait and try again.' } } },
    ]);
    const user = userEvent.setup();
    renderRoute(<ForgotPasswordPage />);
    await user.type(await screen.findByLabelText('Username or e-mail address'), 'ann');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByText(/Too many reset links/)).toBeInTheDocument();
  });
});

describe('ResetPasswordPage', () => {
  it('sets a new password with the link', async () => {
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/password-reset/check', status: 204 },
      { method: 'POST', path: '/api/password-reset', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<ResetPasswordPage />, { path: '/reset-password/:token', url: '/reset-password/r1' });
    await user.type(await screen.findByLabelText(/^New password/), 'my-new-password');
    await user.type(screen.getByLabelText('Type it again'), 'my-new-password');
    await user.click(screen.getByRole('button', { name: 'Set my new password' }));
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeInTheDocument();
    const reset = calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/password-reset'))!;
    expect(reset.body).toEqual({ token: 'r1', password: 'my-new-password' });
  });
});
