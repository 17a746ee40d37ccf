import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminToken } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { ApiTokensPage } from './api-tokens-page';

afterEach(() => vi.unstubAllGlobals());

const token: AdminToken = {
  id: 't1',
  name: 'backup',
  prefix: 'gha_ab12cd',
  role: 'viewer',
  createdBy: 'admin',
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
  lastUsedAddress: '',
  status: 'active',
};
const me = (role: 'admin' | 'viewer') => ({ path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role } } });

describe('ApiTokensPage', () => {
  it('creates a token and shows its value once, with copy', async () => {
    const { calls } = mockFetch([
      me('admin'),
      { path: '/api/admin/tokens', body: { items: [] } },
      { method: 'POST', path: '/api/admin/tokens', status: 201, body: { token, value: 'gha_ab12cdsecretsecret' } },
    ]);
    const user = userEvent.setup();
    renderRoute(<ApiTokensPage />);
    await user.click(await screen.findByRole('button', { name: 'New API token' }));
    const dialog = screen.getByRole('dialog', { name: 'New API token' });
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('Give the token a name')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'backup');
    await user.selectOptions(within(dialog).getByLabelText('Expires'), 'never');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const ready = await screen.findByRole('dialog', { name: 'API token ready' });
    expect(within(ready).getByLabelText('API token value')).toHaveValue('gha_ab12cdsecretsecret');
    expect(within(ready).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'backup', role: 'viewer', expiresAt: null });
    await user.click(within(ready).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body.textContent).not.toContain('gha_ab12cdsecret');
  }, 30_000);

  it('lists tokens with their last use and revokes after confirmation', async () => {
    const { calls } = mockFetch([
      me('admin'),
      {
        path: '/api/admin/tokens',
        body: { items: [{ ...token, lastUsedAt: new Date(Date.now() - 60_000).toISOString(), lastUsedAddress: '203.0.113.7' }, { ...token, id: 't2', name: 'old', status: 'revoked' }] },
      },
      { method: 'DELETE', path: '/api/admin/tokens/t1', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<ApiTokensPage />);
    expect(await screen.findByText('203.0.113.7')).toBeInTheDocument();
    expect(screen.getByText('Revoked')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Revoke / })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Revoke backup' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Revoke backup?' })).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/tokens/t1')).toBe(true));
  }, 30_000);

  it('hides create and revoke from a viewer', async () => {
    mockFetch([me('viewer'), { path: '/api/admin/tokens', body: { items: [token] } }]);
    renderRoute(<ApiTokensPage />);
    expect(await screen.findByText('backup')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'New API token' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /^Revoke/ })).not.toBeInTheDocument();
  });
});
