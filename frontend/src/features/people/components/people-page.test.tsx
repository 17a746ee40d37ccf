import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group, Person } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { PeoplePage } from './people-page';

afterEach(() => vi.unstubAllGlobals());

const none = { password: true, totp: false, passkeys: 0, recoveryCodes: 0 };
const admin: Person = {
  id: 'u1', username: 'admin', email: '', displayName: '', panelRole: 'admin', enabled: true, groups: [], factors: none,
  lastSignInAt: '2026-01-01T10:00:00Z', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
};
const ann: Person = {
  id: 'u2', username: 'ann', email: 'ann@example.com', displayName: 'Ann', panelRole: 'none', enabled: true,
  groups: [{ id: 'g1', name: 'family' }], factors: { password: true, totp: true, passkeys: 2, recoveryCodes: 10 },
  lastSignInAt: null, createdAt: '2026-01-02T00:00:00Z', updatedAt: '2026-01-02T00:00:00Z',
};
const family: Group = { id: 'g1', name: 'family', description: '', members: [], createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
const page = (items: Person[]) => ({ items, total: items.length, limit: 50, offset: 0 });
const me = (role: 'admin' | 'viewer') => ({ path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role } } });
const list = /^\/api\/people\?/;

describe('PeoplePage', () => {
  it('lists people with their role, groups and second factor, and searches on the server', async () => {
    const { calls } = mockFetch([me('admin'), { path: list, body: page([admin, ann]) }, { path: '/api/groups', body: { items: [family] } }]);
    const user = userEvent.setup();
    renderRoute(<PeoplePage />);
    const row = (await screen.findByText('ann')).closest('tr')!;
    expect(within(row).getByText('No panel access')).toBeInTheDocument();
    expect(within(row).getByText('family')).toBeInTheDocument();
    expect(within(row).getByText('authenticator app, 2 passkeys')).toBeInTheDocument();
    expect(within(row).getByText('Ann · ann@example.com')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Search people'), 'ann');
    await waitFor(() => expect(calls.some((c) => c.url.includes('q=ann'))).toBe(true));
  });

  it('adds a person with a panel role and groups, mapping the server field errors', async () => {
    const { calls } = mockFetch([
      me('admin'),
      { path: list, body: page([admin]) },
      { path: '/api/groups', body: { items: [family] } },
      {
        method: 'POST',
        path: '/api/people',
        status: 409,
        body: { error: { code: 'conflict', message: 'another person has this e-mail address', fields: [{ field: 'email', message: 'another person has this e-mail address' }] } },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<PeoplePage />);
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = screen.getByRole('dialog', { name: 'Add person' });
    await user.type(within(dialog).getByLabelText('Username'), 'ann smith');
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Add person' }));
    expect(await within(dialog).findByText('1-64 letters, digits or . _ @ -')).toBeInTheDocument();
    expect(within(dialog).getByText('An e-mail address such as name@example.com')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(within(dialog).getByLabelText('Username'));
    await user.type(within(dialog).getByLabelText('Username'), 'ann');
    await user.clear(within(dialog).getByLabelText(/^E-mail/));
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'ann@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Panel role'), 'viewer');
    await user.click(within(dialog).getByLabelText('family'));
    await user.click(within(dialog).getByRole('button', { name: 'Add person' }));
    expect(await within(dialog).findByText('another person has this e-mail address')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      username: 'ann', displayName: '', email: 'ann@example.com', panelRole: 'viewer', groups: ['g1'], enabled: true,
    });
  }, 30_000);

  it('shows the server refusal to disable, resets a second factor after confirmation', async () => {
    const { calls } = mockFetch([
      me('admin'),
      { path: list, body: page([admin, ann]) },
      { path: '/api/groups', body: { items: [family] } },
      {
        method: 'PATCH',
        path: '/api/people/u1',
        status: 409,
        body: { error: { code: 'conflict', message: 'you cannot disable yourself', fields: [{ field: 'enabled', message: 'you cannot disable yourself' }] } },
      },
      { method: 'DELETE', path: '/api/people/u2/second-factor', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<PeoplePage />);
    await user.click(await screen.findByRole('button', { name: 'Disable admin' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('You cannot disable yourself.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset the second factor of ann' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset second factor' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/people/u2/second-factor')).toBe(true));
    // Without a second factor there is nothing to reset.
    expect(screen.getByRole('button', { name: 'Reset the second factor of admin' })).toBeDisabled();
  }, 30_000);

  it('lets a viewer read people and sessions but change nothing', async () => {
    mockFetch([
      me('viewer'),
      { path: list, body: page([admin, ann]) },
      { path: '/api/groups', body: { items: [family] } },
      { path: '/api/people/u2/sessions', body: { items: [{ id: 's1', current: false, portal: true, userAgent: 'Firefox', address: '192.0.2.1', createdAt: '2026-01-01T00:00:00Z', lastSeenAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-02T00:00:00Z' }] } },
      {
        path: '/api/people/u2/service-sessions',
        body: { items: [{ id: 'v1', serviceId: 'svc1', serviceName: 'Photos', user: 'sub', email: '', name: '', groups: [], kind: 'sso', sharedLinkId: null, createdAt: '2026-01-01T00:00:00Z', lastSeenAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-02T00:00:00Z' }] },
      },
      { path: '/api/people/u2/app-passwords', body: { items: [{ id: 'a1', name: 'Phone calendar', createdAt: '2026-01-01T00:00:00Z', lastUsedAt: null }] } },
    ]);
    const user = userEvent.setup();
    renderRoute(<PeoplePage />);
    await screen.findByText('ann');
    expect(screen.queryByRole('button', { name: 'Add person' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable ann' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sessions of ann' }));
    const dialog = screen.getByRole('dialog', { name: 'Sessions of ann' });
    expect(await within(dialog).findByText('192.0.2.1')).toBeInTheDocument();
    // A session on the sign-in portal says so.
    expect(within(dialog).getByText('Portal')).toBeInTheDocument();
    expect(await within(dialog).findByText('Photos')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Sign out/ })).toBeNull();
    expect(await within(dialog).findByText('Phone calendar')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Revoke/ })).toBeNull();
  });
});
