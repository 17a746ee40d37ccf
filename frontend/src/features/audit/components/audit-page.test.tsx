import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { expectNoWriteButtons, mockFetch, type MockRoute, renderRoute, viewerMe } from '@/test/utils';
import type { AuditEntry, AuditPage as Page } from '@/lib/api-types';
import { AuditPage } from './audit-page';

afterEach(() => vi.unstubAllGlobals());

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 'e1',
  seq: 1,
  at: '2026-11-22T10:00:00.000Z',
  actor: { kind: 'admin', id: 'u1', name: 'admin' },
  address: '198.51.100.7',
  action: 'update',
  resource: { type: 'domains', id: 'd1', name: 'Home' },
  method: 'PUT',
  route: '/api/domains/:id',
  status: 200,
  changes: [],
  ...over,
});

const updated = entry({
  id: 'e2',
  seq: 2,
  changes: [
    { path: 'domain', before: 'example.com', after: 'example.net' },
    { path: 'clientSecret', before: '[redacted]', after: '[redacted]' },
  ],
});
const failed = entry({ id: 'e1', seq: 1, action: 'signin_failed', actor: { kind: 'admin', id: '', name: 'mallory' }, resource: { type: 'admin.sessions', id: '', name: '' }, method: 'POST', route: '/api/admin/login', status: 401 });

const table = (n: number) => screen.findByRole('table', { name: `Audit log, ${n} entries, newest first` });

const page = (items: AuditEntry[], nextBefore: number | null = null, recordFailures = 0): Page => ({ items, nextBefore, recordFailures });
const settings: MockRoute = { path: '/api/audit/settings', body: { retentionDays: 365 } };

function setup(routes: MockRoute[], url = '/audit') {
  const mock = mockFetch([...routes, settings]);
  const user = userEvent.setup();
  renderRoute(
    <>
      <AuditPage />
      <Toaster />
    </>,
    { path: '/audit', url },
  );
  return { ...mock, user };
}

describe('AuditPage', () => {
  it('lists entries newest first and opens one to show what changed', async () => {
    const { user } = setup([{ path: /^\/api\/audit\?limit=50$/, body: page([updated, failed]) }]);
    const t = await table(2);
    expect(within(t).getByText('Failed to sign in')).toBeInTheDocument();
    expect(within(t).getByText('mallory')).toBeInTheDocument();
    expect(within(t).getByText('Updated domain')).toBeInTheDocument();
    expect(within(t).getByText('Home')).toBeInTheDocument();

    const open = screen.getByRole('button', { name: 'Changes (2)' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    const diff = screen.getByRole('table', { name: 'Changed fields' });
    const row = within(diff).getByRole('row', { name: /^Domain/ });
    expect(within(row).getByText('example.com')).toBeInTheDocument();
    expect(within(row).getByText('example.net')).toBeInTheDocument();
    // Secrets stay masked, on both sides, in words.
    const secret = within(diff).getByRole('row', { name: /Client secret/ });
    expect(within(secret).getAllByText('hidden (secret)')).toHaveLength(2);
    expect(within(diff).queryByText('[redacted]')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide changes' }));
    expect(screen.queryByRole('table', { name: 'Changed fields' })).not.toBeInTheDocument();
  });

  it('says every action in one style, names the resource and shows changes as field, before and after', async () => {
    const entries = [
      entry({ id: 'a', seq: 5, action: 'create', resource: { type: 'services', id: '0190', name: 'Grafana' } }),
      entry({ id: 'b', seq: 4, action: 'delete', resource: { type: 'services', id: '0190', name: 'Grafana' } }),
      entry({ id: 'c', seq: 3, action: 'revoke', resource: { type: 'admin.tokens', id: 't1', name: 'ci' } }),
      entry({
        id: 'd',
        seq: 2,
        action: 'update',
        resource: { type: 'services.access', id: '0190', name: 'Grafana' },
        changes: [
          { path: 'loadBalancer.healthCheck.path', before: null, after: '/health' },
          { path: 'targets[0].port', before: 3000, after: 3001 },
          { path: 'httpsRedirect', before: false, after: true },
        ],
      }),
      entry({ id: 'e', seq: 1, action: 'signin', resource: { type: 'admin.sessions', id: '', name: '' } }),
    ];
    const { user } = setup([{ path: /^\/api\/audit\?limit=50$/, body: page(entries) }]);
    const t = await table(5);
    for (const text of ['Created service', 'Deleted service', 'Revoked API token', 'Updated access rules', 'Signed in']) {
      expect(within(t).getByText(text)).toBeInTheDocument();
    }
    expect(within(t).getAllByText('Grafana')).toHaveLength(3);
    expect(within(t).queryByText('0190')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Changes (3)' }));
    const diff = screen.getByRole('table', { name: 'Changed fields' });
    const hc = within(diff).getByRole('row', { name: /Load balancer › Health check › Path/ });
    expect(within(hc).getByText('not set')).toBeInTheDocument();
    expect(within(hc).getByText('/health')).toBeInTheDocument();
    const port = within(diff).getByRole('row', { name: /Targets › 1 › Port/ });
    expect(within(port).getByText('3000')).toBeInTheDocument();
    expect(within(port).getByText('3001')).toBeInTheDocument();
    const redirect = within(diff).getByRole('row', { name: /HTTPS redirect/ });
    expect(within(redirect).getByText('No')).toBeInTheDocument();
    expect(within(redirect).getByText('Yes')).toBeInTheDocument();
  });

  it('shows what a created resource was set to, without a column of absent values', async () => {
    const created = entry({
      action: 'create',
      resource: { type: 'services', id: '0190', name: 'Grafana' },
      changes: [
        { path: 'name', before: null, after: 'Grafana' },
        { path: 'enabled', before: null, after: true },
      ],
    });
    const { user } = setup([{ path: /^\/api\/audit\?limit=50$/, body: page([created]) }]);
    await table(1);
    await user.click(screen.getByRole('button', { name: 'Changes (2)' }));
    const diff = screen.getByRole('table', { name: 'Changed fields' });
    expect(within(diff).getByRole('columnheader', { name: 'Set to' })).toBeInTheDocument();
    expect(within(diff).queryByRole('columnheader', { name: 'Before' })).not.toBeInTheDocument();
    expect(within(within(diff).getByRole('row', { name: /^Enabled/ })).getByText('Yes')).toBeInTheDocument();
    expect(within(diff).queryByText('not set')).not.toBeInTheDocument();
  });

  it('folds the filters behind one button that counts them', async () => {
    const { user } = setup([{ path: /^\/api\/audit\?action=signin&q=x&limit=50$/, body: page([]) }], '/audit?action=signin&q=x');
    const toggle = await screen.findByRole('button', { name: 'Filters (2)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('search', { name: 'Audit log filters' }).id).toBe(toggle.getAttribute('aria-controls'));
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
  });

  it('filters through the API and the CSV link follows the filters', async () => {
    const { calls, user } = setup([
      { path: /^\/api\/audit\?limit=50$/, body: page([updated, failed]) },
      { path: /^\/api\/audit\?action=signin_failed&limit=50$/, body: page([failed]) },
    ]);
    await table(2);
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/audit?format=csv');
    await user.selectOptions(screen.getByLabelText('Action'), 'signin_failed');
    await table(1);
    expect(calls.some((c) => c.url === '/api/audit?action=signin_failed&limit=50')).toBe(true);
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/audit?action=signin_failed&format=csv');
  });

  it('loads older entries from the cursor', async () => {
    const { user } = setup([
      { path: /^\/api\/audit\?limit=50$/, body: page([updated], 2) },
      { path: /^\/api\/audit\?limit=50&before=2$/, body: page([failed]) },
    ]);
    await table(1);
    await user.click(screen.getByRole('button', { name: 'Load older entries' }));
    expect(within(await table(2)).getByText('mallory')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load older entries' })).not.toBeInTheDocument();
  });

  it('says when entries could not be recorded', async () => {
    setup([{ path: /^\/api\/audit\?limit=50$/, body: page([updated], null, 3) }]);
    await table(1);
    expect(screen.getByText('Some changes were not recorded')).toBeInTheDocument();
    expect(screen.getByText(/3 entries could not be written/)).toBeInTheDocument();
  });

  it('shows an empty state that knows about filters', async () => {
    setup([{ path: /^\/api\/audit\?q=nothing&limit=50$/, body: page([]) }], '/audit?q=nothing');
    expect(await screen.findByText('No matching entries')).toBeInTheDocument();
  });

  it('saves the retention and checks it first', async () => {
    const { calls, user } = setup([
      { path: /^\/api\/audit\?limit=50$/, body: page([]) },
      { method: 'PUT', path: '/api/audit/settings', body: { retentionDays: 30 } },
    ]);
    const input = await screen.findByLabelText('Keep entries for (days)');
    await waitFor(() => expect(input).toHaveValue(365));
    await user.clear(input);
    await user.type(input, '-5');
    await user.click(screen.getByRole('button', { name: 'Save retention' }));
    expect(await screen.findByText('Enter 0 or more days')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    await user.clear(input);
    await user.type(input, '30');
    await user.click(screen.getByRole('button', { name: 'Save retention' }));
    expect(await screen.findByText('Retention saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ retentionDays: 30 });
  });

  it('shows a viewer the retention without a way to change it', async () => {
    setup([viewerMe, { path: /^\/api\/audit\?limit=50$/, body: page([]) }]);
    const input = await screen.findByLabelText('Keep entries for (days)');
    await waitFor(() => expect(input).toBeDisabled());
    expect(input).toHaveValue(365);
    expectNoWriteButtons();
  });
});
