import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { AdminSecuritySettings } from './admin-security-settings';

afterEach(() => vi.unstubAllGlobals());

describe('AdminSecuritySettings', () => {
  it('turns the two-factor requirement on', async () => {
    const { calls } = mockFetch([
      { path: '/api/admin/security', body: { requireTwoFactor: false } },
      { method: 'PUT', path: '/api/admin/security', body: { requireTwoFactor: true } },
    ]);
    const user = userEvent.setup();
    renderRoute(<AdminSecuritySettings />);
    const sw = await screen.findByRole('switch', { name: 'Require two-factor sign-in for every administrator' });
    expect(sw).not.toBeChecked();
    await user.click(sw);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ requireTwoFactor: true }));
    await waitFor(() => expect(sw).toBeChecked());
  });

  it('tells administrators who may not see it so, without an error', async () => {
    mockFetch([{ path: '/api/admin/security', status: 403, body: { error: { code: 'forbidden', message: 'no' } } }]);
    renderRoute(<AdminSecuritySettings />);
    expect(await screen.findByText('Only administrators with the admin role can see this.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });
});
