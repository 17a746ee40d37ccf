import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/test/utils';
import { App } from './app';

const signedIn = [
  { path: '/api/system', body: { version: '1.0.0', managed: false, setupRequired: false } },
  { path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin' } } },
];

beforeEach(() => window.history.replaceState(null, '', '/'));
afterEach(() => vi.unstubAllGlobals());

describe('App auth routing', () => {
  it('sends a fresh install to first-run setup', async () => {
    mockFetch([{ path: '/api/system', body: { version: '1.0.0', managed: false, setupRequired: true } }]);
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Welcome to Gatehouse' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/setup');
  });

  it('sends a visitor without a session to sign in, remembering the page', async () => {
    window.history.replaceState(null, '', '/domains');
    mockFetch([
      { path: '/api/system', body: { version: '1.0.0', managed: false, setupRequired: false } },
      { path: '/api/admin/me', status: 401, body: { error: { code: 'unauthenticated', message: 'sign in required' } } },
    ]);
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(window.location.pathname + window.location.search).toBe('/login?next=%2Fdomains');
  });

  it('redirects to sign in when the session expires mid-use', async () => {
    window.history.replaceState(null, '', '/services');
    mockFetch([
      ...signedIn,
      { path: '/api/services', status: 401, body: { error: { code: 'unauthenticated', message: 'session expired' } } },
    ]);
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(window.location.search).toBe('?next=%2Fservices');
  });

  it("opens the account page from the administrator's name in the header", async () => {
    mockFetch([...signedIn, { path: '/api/admin/me/sessions', body: { items: [] } }]);
    const user = userEvent.setup();
    render(<App />);
    const link = await screen.findByRole('link', { name: 'admin' });
    await user.click(link);
    expect(await screen.findByRole('heading', { name: 'Account', level: 1 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/account');
    expect(screen.getByRole('link', { name: 'admin' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('form', { name: 'Change password' })).toBeInTheDocument();
  });

  it('toasts other errors of actions', async () => {
    window.history.replaceState(null, '', '/sessions');
    mockFetch([
      ...signedIn,
      { path: '/api/sessions', body: { items: [{ id: 'x1', serviceId: 's1', serviceName: 'Wiki', user: 'bob', email: '', kind: 'sso', createdAt: '2026-01-01T00:00:00Z', lastSeenAt: '2026-01-01T00:00:00Z', expiresAt: '2030-01-01T00:00:00Z' }] } },
      { method: 'DELETE', path: '/api/sessions', status: 500, body: { error: { code: 'internal', message: 'internal error', requestId: 'r1' } } },
    ]);
    const user = userEvent.setup();
    render(<App />);
    await screen.findByText('bob');
    await user.click(screen.getByRole('button', { name: 'End all sessions' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'End all' }));
    expect(await screen.findByText('internal error')).toBeInTheDocument();
    expect(screen.getByTestId('request-id')).toHaveTextContent('Request ID r1');
    expect(screen.getByRole('button', { name: 'Copy ID' })).toBeInTheDocument();
  });
});

describe('App shell', () => {
  beforeEach(() => localStorage.clear());

  it('folds navigation groups, keeps the current page its group open, and remembers the choice', async () => {
    window.history.replaceState(null, '', '/account');
    mockFetch([...signedIn, { path: '/api/admin/me/sessions', body: { items: [] } }]);
    const user = userEvent.setup();
    render(<App />);
    const nav = await screen.findByRole('complementary', { name: 'Main navigation' });
    // Access and Traefik start folded: the System group is in view.
    expect(within(nav).getByRole('button', { name: 'Access' })).toHaveAttribute('aria-expanded', 'false');
    expect(within(nav).queryByRole('link', { name: 'Sessions' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Audit log' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Managed Traefik', hidden: true })).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Access' }));
    expect(within(nav).getByRole('link', { name: 'Sessions' })).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'System' }));
    expect(within(nav).queryByRole('link', { name: 'Audit log' })).toBeNull();
    expect(JSON.parse(localStorage.getItem('gatehouse.nav.folded') ?? '[]')).toEqual(['Traefik', 'System']);
  });

  it('skips to the content without adding a history entry', async () => {
    window.history.replaceState(null, '', '/account');
    mockFetch([...signedIn, { path: '/api/admin/me/sessions', body: { items: [] } }]);
    const user = userEvent.setup();
    render(<App />);
    await screen.findByRole('complementary', { name: 'Main navigation' });
    const before = window.history.length;
    await user.click(screen.getByRole('link', { name: 'Skip to content' }));
    expect(window.history.length).toBe(before);
    expect(window.location.hash).toBe('');
    expect(document.activeElement).toBe(document.getElementById('main'));
  });
});
