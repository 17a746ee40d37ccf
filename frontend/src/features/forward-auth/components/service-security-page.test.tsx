import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectReadOnly, mockFetch, renderRoute, viewerMe } from '@/test/utils';
import { ServiceSecurityPage } from './service-security-page';

afterEach(() => vi.unstubAllGlobals());

describe('ServiceSecurityPage', () => {
  it('shows a viewer every protection read-only, shared links without new or revoke', async () => {
    mockFetch([
      viewerMe,
      {
        path: '/api/services/s1/security-configs',
        body: {
          items: [
            { type: 'shared_links', enabled: true },
            { type: 'sso', enabled: true, users: ['alice@example.com'], groups: [] },
            { type: 'basic_auth', enabled: false, credentialSetId: '' },
            { type: 'tokens', enabled: true, header: 'X-Api-Key' },
          ],
        },
      },
      {
        path: '/api/services/s1/shared-links',
        body: { items: [{ id: 'l1', note: 'for Bob', status: 'active', expiresAt: new Date(Date.now() + 3600_000).toISOString(), sessionSeconds: 86400, createdAt: new Date().toISOString() }] },
      },
      { path: '/api/credential-sets', body: { items: [] } },
      { path: '/api/sso', body: { enabled: true } },
    ]);
    renderRoute(<ServiceSecurityPage />, { path: '/services/:id/security', url: '/services/s1/security' });
    expect(await screen.findByText('for Bob')).toBeInTheDocument();
    await expectReadOnly();
    for (const name of ['Shared links are accepted', 'Require single sign-on', 'Require basic auth', 'Accept machine tokens'])
      expect(screen.getByRole('switch', { name })).toBeDisabled();
    expect(screen.getByText('alice@example.com')).toBeInTheDocument();
    expect(screen.getByDisplayValue('X-Api-Key')).toBeDisabled();
    expect(screen.queryByRole('link', { name: /New token/ })).not.toBeInTheDocument();
  });
});
