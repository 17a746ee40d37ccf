import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { InvitePage } from './invite-page';
import { RegisterPage } from './register-page';

afterEach(() => vi.unstubAllGlobals());

describe('RegisterPage', () => {
  it('asks for a link and answers the same whatever the name', async () => {
    const { calls } = mockFetch([
      { path: '/api/registration', body: { available: true } },
      { method: 'POST', path: '/api/registration', status: 202 },
    ]);
    const user = userEvent.setup();
    renderRoute(<RegisterPage />, { path: '/register', url: '/register' });
    await user.type(await screen.findByLabelText(/^Username/), 'zoe');
    await user.type(screen.getByLabelText('E-mail address'), 'zoe@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/If this account can be created/)).toBeInTheDocument();
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ username: 'zoe', email: 'zoe@example.com' }));
  });

  it('shows the field the server refuses', async () => {
    mockFetch([
      { path: '/api/registration', body: { available: true } },
      {
        method: 'POST',
        path: '/api/registration',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'username', message: 'must be 1-64 letters, digits or . _ @ -' }] } },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<RegisterPage />, { path: '/register', url: '/register' });
    await user.type(await screen.findByLabelText(/^Username/), 'zo e');
    await user.type(screen.getByLabelText('E-mail address'), 'zoe@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByText('must be 1-64 letters, digits or . _ @ -')).toBeInTheDocument();
  });

  it('says so when self-registration is off', async () => {
    mockFetch([{ path: '/api/registration', body: { available: false } }]);
    renderRoute(<RegisterPage />, { path: '/register', url: '/register' });
    expect(await screen.findByText('Creating your own account is not possible here.')).toBeInTheDocument();
  });

  it('shows the wait when asked too often', async () => {
    mockFetch([
      { path: '/api/registration', body: { available: true } },
      { method: 'POST', path: '/api/registration', status: 429, body: { error: { code: 'rate_limited', message: 'Too many links were asked from your network. Wait and try again.' } } },
    ]);
    const user = userEvent.setup();
    renderRoute(<RegisterPage />, { path: '/register', url: '/register' });
    await user.type(await screen.findByLabelText(/^Username/), 'zoe');
    await user.type(screen.getByLabelText('E-mail address'), 'zoe@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByText(/Too many links/)).toBeInTheDocument();
  });
});

describe('/register/:token', () => {
  it('offers a new link when the link no longer works', async () => {
    mockFetch([{ method: 'POST', path: '/api/invitations/preview', status: 404, body: { error: { code: 'not_found', message: 'invitation not found' } } }]);
    renderRoute(<InvitePage registration />, { path: '/register/:token', url: '/register/old' });
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/register');
  });
});
