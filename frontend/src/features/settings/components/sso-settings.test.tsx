import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { SsoSettings } from './sso-settings';

afterEach(() => vi.unstubAllGlobals());

const adminMe = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'admin' } } };
const sso = { enabled: true, issuer: 'https://id.example.com', clientId: 'gatehouse', clientSecretSet: true, scopes: ['openid'], groupsClaim: 'groups', sessionSeconds: 86400 };
const svc = (id: string, name: string, host: string, ssoOn: boolean) => ({
  id, name, fqdns: [host], protection: { basicAuth: false, sso: ssoOn, sharedLinks: false, tokens: false },
});

describe('SsoSettings', () => {
  it('shows the server refusing an unreachable issuer on the issuer field, without a toast', async () => {
    const message = "the provider's discovery document could not be read: connection refused";
    mockFetch([
      adminMe,
      { path: '/api/sso', body: sso },
      { path: '/api/services', body: { items: [] } },
      { method: 'PUT', path: '/api/sso', status: 422, body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'issuer', message }] } } },
    ]);
    const user = userEvent.setup();
    renderRoute(<SsoSettings />);
    const issuer = await screen.findByLabelText('Issuer URL');
    await user.clear(issuer);
    await user.type(issuer, 'https://down.example.com');
    await user.click(screen.getByRole('button', { name: 'Save single sign-on' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(issuer).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers a test sign-in against a chosen service protected by single sign-on', async () => {
    mockFetch([
      adminMe,
      { path: '/api/sso', body: sso },
      { path: '/api/services', body: { items: [svc('s1', 'Wiki', 'wiki.example.com', true), svc('s2', 'Open', 'open.example.com', false), svc('s3', 'Grafana', 'grafana.example.com', true)] } },
    ]);
    const user = userEvent.setup();
    renderRoute(<SsoSettings />);
    const link = await screen.findByRole('link', { name: 'Test sign-in' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('href', `/api/auth/sso/start?service=s1&rd=${encodeURIComponent('https://wiki.example.com/')}`);
    const select = screen.getByLabelText('Service to test the sign-in with');
    expect(Array.from((select as HTMLSelectElement).options).map((o) => o.text)).toEqual(['Wiki', 'Grafana']);
    await user.selectOptions(select, 's3');
    await waitFor(() => expect(link).toHaveAttribute('href', `/api/auth/sso/start?service=s3&rd=${encodeURIComponent('https://grafana.example.com/')}`));
  });
});
