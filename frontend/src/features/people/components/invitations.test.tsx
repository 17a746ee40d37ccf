import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invitation } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { PeoplePage } from './people-page';

afterEach(() => vi.unstubAllGlobals());

const me = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role: 'admin' } } };
const pending: Invitation = {
  id: 'i1', personId: 'p1', username: 'bob', email: 'bob@example.com', state: 'pending', createdBy: 'admin',
  createdAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-08T00:00:00Z', usedAt: null, revokedAt: null,
};

describe('Invitations on the People page', () => {
  it('lists invitations with their state and invites by e-mail, showing the link once', async () => {
    const { calls } = mockFetch([
      me,
      { path: /^\/api\/people\?/, body: { items: [], total: 0, limit: 50, offset: 0 } },
      { path: '/api/groups', body: { items: [] } },
      { path: '/api/invitations', body: { items: [pending, { ...pending, id: 'i2', username: 'cy', state: 'used' }] } },
      {
        method: 'POST',
        path: '/api/invitations',
        status: 201,
        body: { invitation: { ...pending, id: 'i3', username: 'dee', email: 'dee@example.com' }, link: 'https://panel.example.com/invite/abc', mailed: true },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<PeoplePage />);
    const row = (await screen.findByText('bob')).closest('tr')!;
    expect(within(row).getByText('Waiting')).toBeInTheDocument();
    expect(within(screen.getByText('cy').closest('tr')!).getByText('Accepted')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a person' });
    await user.type(within(dialog).getByLabelText('Username'), 'dee');
    await user.selectOptions(within(dialog).getByLabelText('Send the invitation'), 'email');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText('Needed to send the invitation by e-mail')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'dee@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await screen.findByDisplayValue('https://panel.example.com/invite/abc')).toBeInTheDocument();
    expect(screen.getByText('It was also e-mailed to dee@example.com.')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/invitations'))!;
    expect(post.body).toMatchObject({ username: 'dee', email: 'dee@example.com', delivery: 'email', expiresInHours: 168, panelRole: 'none' });
  });
});
