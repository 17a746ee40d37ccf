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
    expect(within(t).getByText('Sign-in failed')).toBeInTheDocument();
    expect(within(t).getByText('mallory')).toBeInTheDocument();
    expect(within(t).getByText('Updated')).toBeInTheDocument();

    const open = screen.getByRole('button', { name: 'Changes (2)' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    const diff = screen.getByRole('table', { name: 'Changed fields' });
    const row = within(diff).getByRole('row', { name: /domain/ });
    expect(within(row).getByText('example.com')).toBeInTheDocument();
    expect(within(row).getByText('example.net')).toBeInTheDocument();
    expect(within(diff).getAllByText('[redacted]')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Hide changes' }));
    expect(screen.queryByRole('table', { name: 'Changed fields' })).not.toBeInTheDocument();
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
