import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { allowEntryError } from './email-code-protection';
import { ServiceSecurityPage } from './service-security-page';

afterEach(() => vi.unstubAllGlobals());

const adminMe = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'ann', role: 'admin' } } };
const off = {
  basicAuth: { enabled: false, credentialSetId: '' },
  sso: { enabled: false, users: [], groups: [] },
  sharedLinks: { enabled: false },
  tokens: { enabled: false, header: '' },
  emailCode: { enabled: false, allowedEmails: [], sessionSeconds: 86400 },
};
const rest = [
  { path: '/api/services/s1/shared-links', body: { items: [] } },
  { path: '/api/credential-sets', body: { items: [] } },
  { path: '/api/sso', body: { enabled: true } },
];

function renderPage() {
  return renderRoute(<ServiceSecurityPage />, { path: '/services/:id/security', url: '/services/s1/security' });
}

describe('the e-mail code section of the Security tab', () => {
  it('turns e-mail codes on for a domain and an address, with a session length, in the one save', async () => {
    const { calls } = mockFetch([
      adminMe,
      { path: '/api/notifications/settings', body: { certWarningDays: 14, debounceSeconds: 60, mailChannelId: 'c1' } },
      { path: '/api/services/s1/protection', body: off },
      { method: 'PUT', path: '/api/services/s1/protection', body: off },
      ...rest,
    ]);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('switch', { name: /code sent by e-mail/ }));
    await user.click(screen.getByRole('button', { name: 'Save protection' }));
    expect(await screen.findByText(/an empty list lets no one in/)).toBeInTheDocument();
    const list = screen.getByLabelText(/Who may ask for a code/);
    await user.type(list, 'family.example{Enter}ann@example.com{Enter}');
    await user.selectOptions(screen.getByLabelText(/stay signed in/), '7 days');
    await user.click(screen.getByRole('button', { name: 'Save protection' }));
    await waitFor(() =>
      expect((calls.find((c) => c.method === 'PUT')?.body as { emailCode?: unknown })?.emailCode).toEqual({
        enabled: true,
        allowedEmails: ['family.example', 'ann@example.com'],
        sessionSeconds: 7 * 24 * 3600,
      }),
    );
    expect(screen.queryByText(/No e-mail channel sends the codes/)).not.toBeInTheDocument();
  }, 30_000);

  it('warns when no e-mail channel sends the codes', async () => {
    mockFetch([
      adminMe,
      { path: '/api/notifications/settings', body: { certWarningDays: 14, debounceSeconds: 60, mailChannelId: '' } },
      { path: '/api/services/s1/protection', body: off },
      ...rest,
    ]);
    renderPage();
    expect(await screen.findByText(/No e-mail channel sends the codes/)).toBeInTheDocument();
  });

  it('checks allow-list entries as the server does', () => {
    for (const ok of ['ann@example.com', 'example.com', '@example.com', '*.example.com', 'Ann@Example.COM']) expect(allowEntryError(ok)).toBeNull();
    for (const bad of ['*@example.com', 'ann@', 'ann@b@c', 'a b@example.com', 'exa mple.com', '*.', 'ann@example.com,eve@evil.test']) {
      expect(allowEntryError(bad)).not.toBeNull();
    }
  });
});
