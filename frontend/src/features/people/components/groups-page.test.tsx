import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group, Person } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { GroupsPage } from './groups-page';

afterEach(() => vi.unstubAllGlobals());

const ann: Person = {
  id: 'u2', username: 'ann', email: '', displayName: 'Ann', panelRole: 'none', enabled: true, groups: [],
  factors: { password: true, totp: false, passkeys: 0, recoveryCodes: 0 }, linkedIdentities: [], lastSignInAt: null,
  createdAt: '2026-01-02T00:00:00Z', updatedAt: '2026-01-02T00:00:00Z',
};
const family: Group = {
  id: 'g1', name: 'family', description: 'at home', providerName: '', members: [{ id: 'u3', username: 'bob', displayName: '' }],
  createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
};
const me = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role: 'admin' } } };

describe('GroupsPage', () => {
  it('adds a group, checking its name first', async () => {
    const { calls } = mockFetch([me, { path: '/api/groups', body: { items: [] } }, { method: 'POST', path: '/api/groups', status: 201, body: family }]);
    const user = userEvent.setup();
    renderRoute(<GroupsPage />);
    await user.click(await screen.findByRole('button', { name: 'Add group' }));
    const dialog = screen.getByRole('dialog', { name: 'Add group' });
    await user.type(within(dialog).getByLabelText('Name'), '-bad');
    await user.click(within(dialog).getByRole('button', { name: 'Add group' }));
    expect(await within(dialog).findByText(/starting with a letter or digit/)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'family');
    await user.type(within(dialog).getByLabelText(/^Description/), 'at home');
    await user.click(within(dialog).getByRole('button', { name: 'Add group' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'family', description: 'at home' }));
  }, 30_000);

  it('adds and removes members', async () => {
    const { calls } = mockFetch([
      me,
      { path: '/api/groups', body: { items: [family] } },
      { path: /^\/api\/people\?/, body: { items: [ann], total: 1, limit: 50, offset: 0 } },
      { method: 'POST', path: '/api/groups/g1/members', body: family },
      { method: 'DELETE', path: '/api/groups/g1/members/u3', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<GroupsPage />);
    await user.click(await screen.findByRole('button', { name: 'Members of family' }));
    const dialog = screen.getByRole('dialog', { name: 'Members of family' });
    await within(dialog).findByRole('option', { name: 'Ann (ann)' });
    await user.selectOptions(within(dialog).getByLabelText('Person to add'), 'u2');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ personId: 'u2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove bob from family' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/groups/g1/members/u3')).toBe(true));
  }, 30_000);
});
