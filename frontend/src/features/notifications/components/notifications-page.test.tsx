import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import type { Channel } from '@/lib/api-types';
import { deliveryReason } from './delivery-error';
import { NotificationsPage } from './notifications-page';

afterEach(() => vi.unstubAllGlobals());

const me = (role: 'admin' | 'viewer') => ({ path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role } } });
const settings: MockRoute = { path: '/api/notifications/settings', body: { certWarningDays: 14, debounceSeconds: 60 } };

const hook: Channel = {
  id: 'c1',
  name: 'ops hook',
  kind: 'webhook',
  enabled: true,
  events: ['backend_down', 'cert_expiring'],
  settings: {},
  secretsSet: ['webhookUrl'],
  lastDelivery: { at: '2026-11-22T10:00:00Z', ok: false, event: 'backend_down', error: 'connection refused' },
  createdAt: '2026-11-22T09:00:00Z',
  updatedAt: '2026-11-22T09:00:00Z',
};

function setup(routes: MockRoute[], role: 'admin' | 'viewer' = 'admin') {
  const mock = mockFetch([me(role), settings, ...routes]);
  const user = userEvent.setup();
  renderRoute(
    <>
      <NotificationsPage />
      <Toaster />
    </>,
    { path: '/notifications', url: '/notifications' },
  );
  return { ...mock, user };
}

describe('NotificationsPage', () => {
  it('lists channels with their events and last delivery, and sends a test', async () => {
    const { user, calls } = setup([
      { path: '/api/notifications/channels', body: { items: [hook] } },
      { method: 'POST', path: '/api/notifications/channels/c1/test', body: { ok: true } },
    ]);
    const table = await screen.findByRole('table', { name: 'Notification channels' });
    const row = within(table).getByRole('row', { name: /ops hook/ });
    expect(within(row).getByText('Backend down, Certificate expiring')).toBeInTheDocument();
    expect(within(row).getByText('Failed')).toBeInTheDocument();
    expect(within(row).getByText('connection refused')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Send test to ops hook' }));
    expect(await within(row).findByRole('status')).toHaveTextContent('Test message sent.');
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/notifications/channels/c1/test')).toBe(true);
  });

  it('shows a failed test with its reason', async () => {
    const { user } = setup([
      { path: '/api/notifications/channels', body: { items: [hook] } },
      { method: 'POST', path: '/api/notifications/channels/c1/test', body: { ok: false, error: 'dial tcp: connection refused' } },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Send test to ops hook' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('The test message was not delivered: the server refused the connection. Check the URL');
    // The server's words once, folded away; the row's last delivery does not repeat them.
    const details = within(status).getByText('Details').closest('details');
    expect(details).not.toHaveAttribute('open');
    expect(screen.getAllByText('dial tcp: connection refused')).toHaveLength(1);
    expect(screen.queryByText('connection refused')).toBeNull();
  });

  it('explains delivery errors it recognises and keeps the rest as they are', () => {
    expect(deliveryReason('send: dial tcp 10.0.0.5:25: connect: connection refused')).toBe('the server refused the connection');
    expect(deliveryReason('Post "https://x": dial tcp: lookup x on 127.0.0.53:53: no such host')).toBe('the host name could not be resolved');
    expect(deliveryReason('535 5.7.8 Username and Password not accepted')).toBe('the server refused the credentials');
    expect(deliveryReason('something odd')).toBeNull();
  });

  it('creates a webhook channel with typed fields and chosen events', async () => {
    const { user, calls } = setup([
      { path: '/api/notifications/channels', body: { items: [] } },
      { method: 'POST', path: '/api/notifications/channels', status: 201, body: hook },
    ]);
    await user.click(await screen.findByRole('button', { name: 'New channel' }));
    const dialog = screen.getByRole('dialog', { name: 'New notification channel' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Give the channel a name')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the webhook URL')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'ops hook');
    await user.type(within(dialog).getByLabelText('Webhook URL'), 'https://hooks.example.com/in?key=abc');
    await user.click(within(dialog).getByLabelText('Backend recovered'));
    await user.click(within(dialog).getByLabelText('Many failed sign-ins on a service'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/notifications/channels')).toBe(true));
    const body = calls.find((c) => c.method === 'POST' && c.url === '/api/notifications/channels')?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'ops hook',
      kind: 'webhook',
      enabled: true,
      events: ['cert_expiring', 'cert_expired', 'backend_down', 'signin_failures'],
      secrets: { webhookUrl: 'https://hooks.example.com/in?key=abc' },
    });
  });

  it('shows a stored secret as set, keeps it when left empty, and puts server errors on fields', async () => {
    const { user, calls } = setup([
      { path: '/api/notifications/channels', body: { items: [{ ...hook, kind: 'email', secretsSet: ['password'], settings: { host: 'mail.example.com', from: 'a@example.com', to: ['b@example.com'], username: 'me', encryption: 'tls' } }] } },
      {
        method: 'PUT',
        path: '/api/notifications/channels/c1',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'request has invalid fields', fields: [{ field: 'settings.to[0]', message: 'must be an e-mail address' }] } },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Edit ops hook' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit ops hook' });
    expect(within(dialog).getByText('Set. Enter a new value to replace it.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Password/)).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('must be an e-mail address')).toBeInTheDocument();
    const body = calls.find((c) => c.method === 'PUT')?.body as { secrets: Record<string, unknown>; settings: Record<string, unknown> };
    expect(body.secrets).toEqual({});
    expect(body.settings).toMatchObject({ host: 'mail.example.com', to: ['b@example.com'], encryption: 'tls' });
  });

  it('offers a viewer no write controls', async () => {
    setup([{ path: '/api/notifications/channels', body: { items: [hook] } }], 'viewer');
    await screen.findByRole('table', { name: 'Notification channels' });
    expect(screen.queryByRole('button', { name: 'New channel' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send test/ })).not.toBeInTheDocument();
  });

  it('closes an untouched channel form at once', async () => {
    const { user } = setup([{ path: '/api/notifications/channels', body: { items: [hook] } }]);
    await user.click(await screen.findByRole('button', { name: 'Edit ops hook' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit ops hook' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
  it('chooses the e-mail channel that mails people', async () => {
    const mailer: Channel = { ...hook, id: 'm1', name: 'people mail', kind: 'email', events: [], settings: { host: 'smtp.example.com', from: 'gate@example.com' }, secretsSet: [] };
    const { user, calls } = setup([
      { path: '/api/notifications/channels', body: { items: [hook, mailer] } },
      { method: 'PUT', path: '/api/notifications/settings', body: { certWarningDays: 14, debounceSeconds: 60, mailChannelId: 'm1' } },
    ]);
    const select = await screen.findByLabelText(/E-mail to people goes through/);
    await screen.findByRole('option', { name: 'people mail' });
    expect(within(select).queryByRole('option', { name: 'ops hook' })).not.toBeInTheDocument();
    await user.selectOptions(select, 'people mail');
    await user.click(within(screen.getByRole('form', { name: 'Notification settings' })).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ certWarningDays: 14, debounceSeconds: 60, mailChannelId: 'm1' }));
  });

  it('keeps a channel chosen before the settings arrive', async () => {
    const mailer: Channel = { ...hook, id: 'm1', name: 'people mail', kind: 'email', events: [], settings: { host: 'smtp.example.com', from: 'gate@example.com' }, secretsSet: [] };
    const { fn, calls } = mockFetch([
      me('admin'),
      settings,
      { path: '/api/notifications/channels', body: { items: [mailer] } },
      { method: 'PUT', path: '/api/notifications/settings', body: { certWarningDays: 14, debounceSeconds: 60, mailChannelId: 'm1' } },
    ]);
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/api/notifications/settings' && (init?.method ?? 'GET') === 'GET') await gate;
      return fn(input, init);
    });
    const user = userEvent.setup();
    renderRoute(<NotificationsPage />, { path: '/notifications', url: '/notifications' });
    const select = await screen.findByLabelText(/E-mail to people goes through/);
    await screen.findByRole('option', { name: 'people mail' });
    await user.selectOptions(select, 'people mail');
    release();
    const save = within(screen.getByRole('form', { name: 'Notification settings' })).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    expect(select).toHaveValue('m1');
    await user.click(save);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ certWarningDays: 14, debounceSeconds: 60, mailChannelId: 'm1' }));
  });
});
