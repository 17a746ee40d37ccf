import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { PortalSignInPage } from './portal-sign-in-page';

afterEach(() => vi.unstubAllGlobals());

describe('PortalSignInPage', () => {
  it('offers "Create an account" when self-registration is on', async () => {
    mockFetch([{ path: '/api/registration', body: { available: true } }]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
  });

  it('does not when it is off', async () => {
    mockFetch([{ path: '/api/registration', body: { available: false } }]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
  });

  it('sends someone already signed in straight on to rd', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, origin: window.location.origin, assign });
    const rd = `${window.location.origin}/api/portal/continue?rd=${encodeURIComponent('https://mail.example.com/')}`;
    mockFetch([{ path: '/api/admin/me', body: { user: { id: 'p1', username: 'ann', role: 'none' } } }]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: `/login?rd=${encodeURIComponent(rd)}` });
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(`/api/portal/continue?rd=${encodeURIComponent('https://mail.example.com/')}`));
  });

  it('asks a signed-in person to sign in again with a factor when the service wants one', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, origin: window.location.origin, assign });
    const { calls } = mockFetch([{ path: '/api/admin/me', body: { user: { id: 'p1', username: 'ann', role: 'none' } } }]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: `/login?stepup=1&rd=${encodeURIComponent(window.location.origin + '/')}` });
    expect(await screen.findByRole('heading', { name: 'Sign in again' })).toBeInTheDocument();
    expect(screen.getByText(/asks for your second factor/)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(calls.some((c) => c.url === '/api/admin/me')).toBe(false);
  });

  it('offers a password reset when mail is set up', async () => {
    mockFetch([{ path: '/api/password-reset', body: { available: true } }]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password');
  });

  it('offers "Sign in with" the provider, carrying rd to the server', async () => {
    mockFetch([{ path: '/api/portal', body: { portal: true, name: 'Family', logo: '', accentColor: '#2563eb', passkeys: false, provider: 'Example ID' } }]);
    const rd = `${window.location.origin}/account`;
    renderRoute(<PortalSignInPage />, { path: '/login', url: `/login?rd=${encodeURIComponent(rd)}` });
    const link = await screen.findByRole('link', { name: 'Sign in with Example ID' });
    expect(link).toHaveAttribute('href', `/api/portal/sso/start?rd=${encodeURIComponent(rd)}`);
  });

  it('offers no provider when the portal has none', async () => {
    mockFetch([{ path: '/api/portal', body: { portal: true, name: 'Family', logo: '', accentColor: '#2563eb', passkeys: false, provider: '' } }]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: '/login' });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
  });

  it('says in plain words why the provider sign-in came back', async () => {
    mockFetch([]);
    renderRoute(<PortalSignInPage />, { path: '/login', url: '/login?error=sso_not_allowed' });
    expect(await screen.findByText('No account here')).toBeInTheDocument();
    expect(screen.getByText(/does not have access to this site/)).toBeInTheDocument();
  });
});
