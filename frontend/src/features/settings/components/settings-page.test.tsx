import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectReadOnly, mockFetch, renderRoute, viewerMe } from '@/test/utils';
import { SettingsPage } from './settings-page';

afterEach(() => vi.unstubAllGlobals());

const forbidden = { status: 403, body: { error: { code: 'forbidden', message: 'only an administrator with the admin role can change the panel\'s sign-in' } } };

describe('SettingsPage', () => {
  it('shows a viewer every section read-only, and the admin-only ones as such', async () => {
    mockFetch([
      viewerMe,
      { path: '/api/config', body: { adminDomain: 'panel.example.com', defaultEntrypoints: ['websecure'], globalMiddlewares: [], defaultLifetimeSeconds: 0 } },
      { path: '/api/sso', body: { enabled: true, issuer: 'https://id.example.com', clientId: 'gatehouse', clientSecretSet: true, scopes: ['openid'], groupsClaim: 'groups', sessionSeconds: 86400 } },
      { path: '/api/config/portal', body: { host: 'auth.example.com', name: 'Family', logo: '', accentColor: '#2563eb', idleTimeoutSeconds: 43200, rememberMeSeconds: 2592000, absoluteLifetimeSeconds: 7776000 } },
      { path: '/api/admin/sso', ...forbidden },
      { path: '/api/admin/security', ...forbidden },
    ]);
    renderRoute(<SettingsPage />);
    await expectReadOnly();
    expect(await screen.findByLabelText('Admin panel domain')).toBeDisabled();
    expect(screen.getByLabelText('Issuer URL')).toBeDisabled();
    expect(await screen.findAllByText('Only administrators with the admin role can see this.')).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
