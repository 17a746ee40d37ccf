import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { mockFetch, renderRoute, type MockRoute } from '@/test/utils';
import type { BackupStatus } from '@/lib/api-types';
import { formatSize } from '../api/backups';
import { BackupsPage } from './backups-page';

afterEach(() => vi.unstubAllGlobals());

const me = (role: 'admin' | 'viewer') => ({ path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role } } });
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();

const status = (over: Partial<BackupStatus> = {}): BackupStatus => ({
  directory: '/data/backups',
  schedule: { enabled: true, intervalHours: 24, keep: 7 },
  next: new Date(Date.now() + 21 * 3600_000).toISOString(),
  lastError: null,
  backups: [
    { name: 'gatehouse-20261122-163000.tar.gz', size: 1_250_000, createdAt: hoursAgo(3), schemaVersion: 12, trigger: 'scheduled' },
    { name: 'gatehouse-20261120-090000.tar.gz', size: 900, createdAt: hoursAgo(58), schemaVersion: 12, trigger: 'manual' },
  ],
  ...over,
});

function setup(routes: MockRoute[], role: 'admin' | 'viewer' = 'admin') {
  const mock = mockFetch([me(role), ...routes]);
  const user = userEvent.setup();
  renderRoute(
    <>
      <BackupsPage />
      <Toaster />
    </>,
    { path: '/backups', url: '/backups' },
  );
  return { ...mock, user };
}

describe('BackupsPage', () => {
  it('lists backups with size, age and trigger, and takes one now', async () => {
    const { user, calls } = setup([
      { path: '/api/backups', body: status() },
      { method: 'POST', path: '/api/backups', status: 201, body: status().backups[0] },
    ]);
    const table = await screen.findByRole('table', { name: 'Backups' });
    const row = within(table).getByRole('row', { name: /163000/ });
    expect(within(row).getByText('1.2 MiB')).toBeInTheDocument();
    expect(within(row).getByText('3 hours ago')).toBeInTheDocument();
    expect(within(row).getByText('Scheduled')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: /Download/ })).toHaveAttribute('href', '/api/backups/gatehouse-20261122-163000.tar.gz/download');
    expect(screen.getByDisplayValue('/data/backups')).toHaveAttribute('readonly');
    await user.click(screen.getByRole('button', { name: 'Back up now' }));
    expect(await screen.findByText('Backup written')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/backups')).toBe(true);
  });

  it('deletes after confirmation', async () => {
    const { user, calls } = setup([
      { path: '/api/backups', body: status() },
      { method: 'DELETE', path: '/api/backups/gatehouse-20261120-090000.tar.gz', status: 204 },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Delete gatehouse-20261120-090000.tar.gz' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/taken by hand and is never pruned/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Backup deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/backups/gatehouse-20261120-090000.tar.gz')).toBe(true);
  });

  it('saves the schedule and shows server field errors', async () => {
    const { user, calls } = setup([
      { path: '/api/backups', body: status() },
      {
        method: 'PUT',
        path: '/api/backups/schedule',
        status: 422,
        body: { error: { code: 'validation_failed', message: 'invalid', fields: [{ field: 'keep', message: 'must be between 1 and 1000' }] } },
      },
    ]);
    const form = await screen.findByRole('form', { name: 'Backup schedule' });
    const every = within(form).getByLabelText('Every (hours)');
    await user.clear(every);
    await user.type(every, '0');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('At least 1 hour')).toBeInTheDocument();
    await user.clear(every);
    await user.type(every, '6');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('must be between 1 and 1000')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ enabled: true, intervalHours: 6, keep: 7 });
  });

  it('shows the last error', async () => {
    setup([{ path: '/api/backups', body: status({ lastError: { at: hoursAgo(1), message: 'no space left on device' } }) }]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The last scheduled backup failed 1 hour ago');
    expect(alert).toHaveTextContent('no space left on device');
  });

  it('is read-only for a viewer: no download, no delete, no changes', async () => {
    setup([{ path: '/api/backups', body: status() }], 'viewer');
    const table = await screen.findByRole('table', { name: 'Backups' });
    expect(await screen.findByText('You have read-only access')).toBeInTheDocument();
    // The rows, not the sortable headings, would hold the controls.
    const rows = table.querySelector('tbody')!;
    expect(within(rows).queryByRole('link')).toBeNull();
    expect(within(rows).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Back up now' })).toBeNull();
    expect(screen.getByLabelText('Every (hours)')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});

describe('formatSize', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1536, '1.5 KiB'],
    [1_250_000, '1.2 MiB'],
    [50 * 1024 * 1024, '50 MiB'],
  ])('%d -> %s', (n, want) => expect(formatSize(n)).toBe(want));
});
