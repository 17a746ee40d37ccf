import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, viewerMe } from '@/test/utils';
import { ServiceSecurityPage } from './service-security-page';
import { userEntryError } from './user-entry';

afterEach(() => vi.unstubAllGlobals());

describe('SsoCard', () => {
  it('says which claim each kind of allowed-user entry is compared with', async () => {
    mockFetch([
      viewerMe,
      { path: '/api/services/s1/security-configs', body: { items: [{ type: 'sso', enabled: true, users: ['sub:248289761001'], groups: [] }] } },
      { path: '/api/services/s1/shared-links', body: { items: [] } },
      { path: '/api/credential-sets', body: { items: [] } },
      { path: '/api/sso', body: { enabled: true } },
    ]);
    renderRoute(<ServiceSecurityPage />, { path: '/services/:id/security', url: '/services/s1/security' });
    expect(await screen.findByText('sub:248289761001')).toBeInTheDocument();
    const hint = screen.getByText(/which never changes/).closest('ul')!;
    const codes = [...hint.querySelectorAll('code')].map((c) => c.textContent);
    for (const claim of ['sub', 'email', 'email_verified', 'preferred_username']) expect(codes).toContain(claim);
  });

  it('accepts sub: subjects, e-mail addresses and usernames', () => {
    expect(userEntryError('sub:248289761001')).toBeNull();
    expect(userEntryError('sub:auth0|5f7c8ec7c33c6c004bbafe82')).toBeNull();
    expect(userEntryError('alice@example.com')).toBeNull();
    expect(userEntryError('alice.smith')).toBeNull();
    expect(userEntryError('sub:')).toMatch(/subject/);
    expect(userEntryError('two words')).not.toBeNull();
  });
});
