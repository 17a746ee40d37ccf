import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { allowEntryError, EmailCodeProtection } from './email-code-protection';

afterEach(() => vi.unstubAllGlobals());

describe('EmailCodeProtection', () => {
  it('turns e-mail codes on for a domain and an address, with a session length', async () => {
    const { calls } = mockFetch([
      { path: '/api/notifications/settings', body: { certWarningDays: 14, debounceSeconds: 60, mailChannelId: 'c1' } },
      { method: 'POST', path: '/api/services/s1/security-configs', status: 201, body: {} },
    ]);
    const user = userEvent.setup();
    renderRoute(<EmailCodeProtection serviceId="s1" config={undefined} />);
    expect(screen.getByRole('button', { name: 'Save e-mail code' })).toBeDisabled();
    await user.click(screen.getByRole('switch', { name: /code sent by e-mail/ }));
    await user.click(screen.getByRole('button', { name: 'Save e-mail code' }));
    expect(await screen.findByText(/an empty list lets no one in/)).toBeInTheDocument();
    const list = screen.getByLabelText(/Who may ask for a code/);
    await user.type(list, 'family.example{Enter}ann@example.com{Enter}');
    await user.selectOptions(screen.getByLabelText(/stay signed in/), '7 days');
    await user.click(screen.getByRole('button', { name: 'Save e-mail code' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        type: 'email_code',
        enabled: true,
        allowedEmails: ['family.example', 'ann@example.com'],
        sessionSeconds: 7 * 24 * 3600,
      }),
    );
    expect(screen.queryByText(/No e-mail channel sends the codes/)).not.toBeInTheDocument();
  });

  it('warns when no e-mail channel sends the codes', async () => {
    mockFetch([{ path: '/api/notifications/settings', body: { certWarningDays: 14, debounceSeconds: 60, mailChannelId: '' } }]);
    renderRoute(<EmailCodeProtection serviceId="s1" config={undefined} />);
    expect(await screen.findByText(/No e-mail channel sends the codes/)).toBeInTheDocument();
  });

  it('checks allow-list entries as the server does', () => {
    for (const ok of ['ann@example.com', 'example.com', '@example.com', '*.example.com', 'Ann@Example.COM']) expect(allowEntryError(ok)).toBeNull();
    for (const bad of ['*@example.com', 'ann@', 'ann@b@c', 'a b@example.com', 'exa mple.com', '*.', 'ann@example.com,eve@evil.test']) {
      expect(allowEntryError(bad)).not.toBeNull();
    }
  });
});
