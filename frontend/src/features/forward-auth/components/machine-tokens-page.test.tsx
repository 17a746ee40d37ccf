import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MachineToken } from '@/lib/api-types';
import { mockFetch, renderRoute } from '@/test/utils';
import { MachineTokensPage } from './machine-tokens-page';

afterEach(() => vi.unstubAllGlobals());

const token: MachineToken = {
  id: 't1',
  name: 'phone',
  prefix: 'ght_ab12',
  services: [{ id: 's1', name: 'Nextcloud' }],
  scope: { pathPrefix: '/remote.php/dav', methods: ['GET', 'PROPFIND'] },
  expiresAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  revokedAt: null,
  lastUsedAt: null,
  lastUsedAddress: '',
  status: 'active',
};

const services = {
  items: [
    { id: 's1', name: 'Nextcloud', fqdns: ['cloud.example.com'] },
    { id: 's2', name: 'Grafana', fqdns: ['grafana.example.com'] },
  ],
};

describe('MachineTokensPage', () => {
  it('creates a token and shows its value once, with copy and the warnings', async () => {
    const { calls } = mockFetch([
      { path: '/api/machine-tokens', body: { items: [] } },
      { path: '/api/services', body: services },
      {
        method: 'POST',
        path: '/api/machine-tokens',
        status: 201,
        body: {
          token,
          value: 'ght_ab12secretsecretsecret',
          warnings: ['tokens are off for Nextcloud: turn on the Machine tokens protection'],
        },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<MachineTokensPage />);
    await user.click(await screen.findByRole('button', { name: 'New token' }));
    const dialog = screen.getByRole('dialog', { name: 'New machine token' });
    await user.type(within(dialog).getByLabelText('Name'), 'phone');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('Pick at least one service')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('checkbox', { name: /Nextcloud/ }));
    await user.type(within(dialog).getByLabelText('Path prefix'), '/remote.php/dav');
    await user.click(within(dialog).getByRole('checkbox', { name: 'GET' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'PROPFIND' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const ready = await screen.findByRole('dialog', { name: 'Token ready' });
    expect(ready).toHaveAccessibleDescription('Copy it now: you will not see it again.');
    expect(within(ready).getByLabelText('Token value')).toHaveValue('ght_ab12secretsecretsecret');
    expect(within(ready).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(within(ready).getByText('tokens are off for Nextcloud: turn on the Machine tokens protection')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      name: 'phone',
      serviceIds: ['s1'],
      scope: { pathPrefix: '/remote.php/dav', methods: ['GET', 'PROPFIND'] },
      expiresAt: null,
    });

    await user.click(within(ready).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Token ready' })).not.toBeInTheDocument());
    // Gone for good: nothing on the page holds the value any more.
    expect(document.body.textContent).not.toContain('ght_ab12secret');
    expect(screen.queryByDisplayValue('ght_ab12secretsecretsecret')).not.toBeInTheDocument();
  }, 30_000);

  it('opens the create dialog for the service named in ?new=', async () => {
    mockFetch([
      { path: '/api/machine-tokens', body: { items: [] } },
      { path: '/api/services', body: services },
    ]);
    renderRoute(<MachineTokensPage />, { url: '/?new=s2' });
    const dialog = await screen.findByRole('dialog', { name: 'New machine token' });
    expect(await within(dialog).findByRole('checkbox', { name: /Grafana/ })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: /Nextcloud/ })).not.toBeChecked();
  });

  it('lists tokens with a text status, revokes after confirmation and deletes', async () => {
    const { calls } = mockFetch([
      {
        path: '/api/machine-tokens',
        body: {
          items: [
            { ...token, lastUsedAt: new Date(Date.now() - 60_000).toISOString(), lastUsedAddress: '203.0.113.7' },
            { ...token, id: 't2', name: 'old', status: 'revoked', revokedAt: '2026-01-02T00:00:00Z' },
          ],
        },
      },
      { method: 'POST', path: '/api/machine-tokens/t1/revoke', body: { ...token, status: 'revoked' } },
      { method: 'DELETE', path: '/api/machine-tokens/t2', status: 204 },
    ]);
    const user = userEvent.setup();
    renderRoute(<MachineTokensPage />);
    expect(await screen.findByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Revoked')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.7')).toBeInTheDocument();
    expect(screen.getAllByText('/remote.php/dav · GET, PROPFIND')).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: /^Revoke / })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Revoke phone' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Revoke phone?' })).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/machine-tokens/t1/revoke')).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Delete old' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete old?' })).getByRole('button', { name: 'Delete token' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/machine-tokens/t2')).toBe(true));
  }, 30_000);
});
