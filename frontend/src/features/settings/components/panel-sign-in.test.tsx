import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute } from '@/test/utils';
import { PanelSignIn } from './panel-sign-in';

afterEach(() => vi.unstubAllGlobals());

const settings = {
  enabled: true,
  createAdmins: false,
  localPasswords: true,
  providerConfigured: true,
  redirectUrl: 'https://panel.example.com/api/admin/sso/callback',
  rules: [{ claim: 'group', value: 'ops', role: 'admin' }],
};

describe('PanelSignIn', () => {
  it('shows the rules and the redirect URL', async () => {
    mockFetch([{ path: '/api/admin/sso', body: settings }]);
    renderRoute(<PanelSignIn />);
    expect(await screen.findByLabelText('Rule 1 value')).toHaveValue('ops');
    expect(screen.getByLabelText('Rule 1 claim')).toHaveValue('group');
    expect(screen.getByLabelText('Rule 1 role')).toHaveValue('admin');
    expect(screen.getByDisplayValue(settings.redirectUrl)).toBeInTheDocument();
    expect(screen.getByText(/does not ask for its own second factor/)).toBeInTheDocument();
  });

  it('adds a rule and saves the list in order', async () => {
    const { calls } = mockFetch([
      { path: '/api/admin/sso', body: settings },
      { method: 'PUT', path: '/api/admin/sso', body: settings },
    ]);
    const user = userEvent.setup();
    renderRoute(<PanelSignIn />);
    await user.click(await screen.findByRole('button', { name: 'Add rule' }));
    await user.selectOptions(screen.getByLabelText('Rule 2 claim'), 'email');
    await user.type(screen.getByLabelText('Rule 2 value'), 'eve@example.com');
    await user.selectOptions(screen.getByLabelText('Rule 2 role'), 'viewer');
    await user.click(screen.getByRole('button', { name: 'Move rule 2 up' }));
    await user.click(screen.getByRole('button', { name: 'Save panel sign-in' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      enabled: true,
      createAdmins: false,
      localPasswords: true,
      rules: [
        { claim: 'email', value: 'eve@example.com', role: 'viewer' },
        { claim: 'group', value: 'ops', role: 'admin' },
      ],
    });
  });

  it('asks before turning passwords off, then shows the server field errors next to the fields', async () => {
    mockFetch([
      { path: '/api/admin/sso', body: settings },
      {
        method: 'PUT',
        path: '/api/admin/sso',
        status: 422,
        body: {
          error: {
            code: 'validation_failed',
            message: 'invalid',
            fields: [
              { field: 'rules[0].value', message: 'is taken by the server' },
              { field: 'localPasswords', message: 'can only be turned off while SSO sign-in is enabled' },
            ],
          },
        },
      },
    ]);
    const user = userEvent.setup();
    renderRoute(<PanelSignIn />);
    await user.click(await screen.findByRole('switch', { name: 'Allow signing in with a password' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('gatehouse admin local-passwords on')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Turn off passwords' }));
    expect(screen.getByRole('switch', { name: 'Allow signing in with a password' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save panel sign-in' }));
    expect(await screen.findByText('is taken by the server')).toBeInTheDocument();
    expect(screen.getByText('can only be turned off while SSO sign-in is enabled')).toBeInTheDocument();
  });

  it('keeps passwords on when the confirmation is cancelled', async () => {
    mockFetch([{ path: '/api/admin/sso', body: settings }]);
    const user = userEvent.setup();
    renderRoute(<PanelSignIn />);
    await user.click(await screen.findByRole('switch', { name: 'Allow signing in with a password' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('switch', { name: 'Allow signing in with a password' })).toBeChecked();
  });

  it('refuses to turn passwords off without an admin rule before asking the server', async () => {
    const { calls } = mockFetch([{ path: '/api/admin/sso', body: { ...settings, rules: [{ claim: 'group', value: 'ops', role: 'viewer' }] } }]);
    const user = userEvent.setup();
    renderRoute(<PanelSignIn />);
    await user.click(await screen.findByRole('switch', { name: 'Allow signing in with a password' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Turn off passwords' }));
    await user.click(screen.getByRole('button', { name: 'Save panel sign-in' }));
    expect(await screen.findByText(/with a rule giving the admin role/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });
});
