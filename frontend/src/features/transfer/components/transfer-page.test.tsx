import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoute, viewerMe, type MockRoute } from '@/test/utils';
import type { ImportPlan } from '@/lib/api-types';
import { TransferPage } from './transfer-page';

const adminMe: MockRoute = { path: '/api/admin/me', body: { user: { id: 'u1', username: 'admin', role: 'admin' } } };

const plan = (over: Partial<ImportPlan> = {}): ImportPlan => ({
  format: 'gatehouse',
  mode: 'merge',
  applied: false,
  digest: 'sha256:abc',
  summary: { create: 1, update: 1, unchanged: 1, delete: 0, refused: 1, skipped: 1 },
  items: [
    { kind: 'service', name: 'app', action: 'create', details: ['hostnames: app.example.com', 'targets: http://10.0.0.5:3000'] },
    { kind: 'service', name: 'blog', action: 'update', fields: ['targets'], details: ['targets: http://a:80 → https://b:443'] },
    { kind: 'domain', name: 'example.com', action: 'unchanged' },
    { kind: 'credentialSet', name: 'family', action: 'refused', reason: 'users[0].passwordHash: is not a bcrypt hash' },
  ],
  skipped: [{ source: 'proxy host #3 (a.example.com)', reason: 'stream hosts are not supported' }],
  ...over,
});

let downloads: string[] = [];
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:x');
  URL.revokeObjectURL = vi.fn();
  downloads = [];
  // jsdom cannot navigate: record what the page hands to the browser instead.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setup(routes: MockRoute[]) {
  const mock = mockFetch(routes);
  const user = userEvent.setup();
  renderRoute(<TransferPage />, { path: '/transfer', url: '/transfer' });
  return { ...mock, user };
}

describe('TransferPage', () => {
  it('exports with secrets only once the passphrase is given twice', async () => {
    const { user, calls } = setup([
      adminMe,
      { method: 'POST', path: '/api/export', body: { format: 'gatehouse-export' }, headers: { 'Content-Disposition': 'attachment; filename="gatehouse-export-20261122-120000.json"' } },
    ]);
    await user.click(await screen.findByRole('checkbox', { name: /include secrets/i }));
    const button = screen.getByRole('button', { name: 'Export' });
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Passphrase'), 'a long passphrase');
    await user.type(screen.getByLabelText('Passphrase again'), 'a long passphrasX');
    expect(screen.getByText('The passphrases differ.')).toBeInTheDocument();
    expect(button).toBeDisabled();
    await user.clear(screen.getByLabelText('Passphrase again'));
    await user.type(screen.getByLabelText('Passphrase again'), 'a long passphrase');
    await user.click(button);
    expect(await screen.findByText(/Saved as gatehouse-export-20261122-120000.json/)).toBeInTheDocument();
    expect(downloads).toEqual(['gatehouse-export-20261122-120000.json']);
    const post = calls.find((c) => c.method === 'POST' && c.url === '/api/export');
    expect(post?.body).toEqual({ admins: false, secrets: true, adminPasswords: false, passphrase: 'a long passphrase' });
  });

  it('reviews a file, shows the plan, and applies it with the reviewed digest', async () => {
    const { user, calls } = setup([
      adminMe,
      { method: 'POST', path: /^\/api\/import\?format=auto&mode=replace&apply=false$/, body: plan({ mode: 'replace', summary: { create: 1, update: 1, unchanged: 1, delete: 1, refused: 1, skipped: 1 } }) },
      {
        method: 'POST',
        path: /^\/api\/import\?format=auto&mode=replace&apply=true&digest=sha256%3Aabc$/,
        body: plan({
          mode: 'replace',
          applied: true,
          items: [
            { kind: 'service', name: 'app', action: 'create', id: 's-new', details: ['hostnames: app.example.com'] },
            { kind: 'service', name: 'blog', action: 'update', id: 's-blog', fields: ['targets'] },
            { kind: 'alertRule', name: 'app errors', action: 'update', id: 'r-1', fields: ['threshold'] },
          ],
        }),
      },
    ]);
    const file = new File(['{"format":"gatehouse-export","version":1}'], 'export.json', { type: 'application/json' });
    await user.upload(await screen.findByLabelText('File'), file);
    await user.click(screen.getByRole('radio', { name: /replace/i }));
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const table = await screen.findByRole('table', { name: 'Import plan' });
    expect(within(table).getByText('Create')).toBeInTheDocument();
    expect(within(table).getByText('Changes targets')).toBeInTheDocument();
    expect(within(table).getByText('hostnames: app.example.com')).toBeInTheDocument();
    expect(within(table).getByText('targets: http://a:80 → https://b:443')).toBeInTheDocument();
    expect(within(table).getByText('users[0].passwordHash: is not a bcrypt hash')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Not imported' })).toHaveTextContent('stream hosts are not supported');
    expect(screen.getByRole('status')).toHaveTextContent('1 to delete');
    await user.click(screen.getByRole('button', { name: 'Apply 3 changes' }));
    expect(await screen.findByText(/1 created, 1 updated, 0 deleted, 1 refused/)).toBeInTheDocument();
    const done = screen.getByTestId('import-applied');
    expect(within(done).getByRole('link', { name: 'app' })).toHaveAttribute('href', '/services/s-new');
    expect(within(done).getByRole('link', { name: 'blog' })).toHaveAttribute('href', '/services/s-blog');
    expect(within(done).getByRole('link', { name: 'app errors' })).toHaveAttribute('href', '/alerts');
    expect(done).toHaveTextContent('Updated alert rule app errors');
    const applied = calls.find((c) => c.url.includes('apply=true'));
    expect(applied?.headers['Content-Type']).toBe('application/octet-stream');
  });

  it("shows a Traefik router's notes on the service it becomes: how it is served, beside its details", async () => {
    const plain = 'it has no tls section and no entrypoints, so Traefik serves it over plain HTTP: imported on the plain entrypoint "web"';
    const { user } = setup([
      adminMe,
      {
        method: 'POST',
        path: /^\/api\/import\?format=auto&mode=merge&apply=false$/,
        body: plan({
          format: 'traefik',
          items: [{ kind: 'service', name: 'whoami', action: 'create', details: ['entrypoints: web', 'served over: plain HTTP only (web)'] }],
          skipped: [
            { source: 'router whoami', reason: plain },
            { source: 'tcp section (1 routers)', reason: 'Gatehouse manages HTTP routing only' },
          ],
        }),
      },
    ]);
    await user.upload(await screen.findByLabelText('File'), new File(['http: {}'], 'dynamic.yml', { type: 'text/yaml' }));
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const table = await screen.findByRole('table', { name: 'Import plan' });
    const row = within(table).getByRole('row', { name: /whoami/ });
    expect(within(row).getByText('served over: plain HTTP only (web)')).toBeInTheDocument();
    expect(within(row).getByTestId('import-note')).toHaveTextContent(plain);
    expect(within(row).queryByText(/tcp section/)).not.toBeInTheDocument();
  });

  it('asks for the passphrase of a file with sealed secrets and shows a wrong one on the field', async () => {
    const { user, calls } = setup([
      adminMe,
      {
        method: 'POST',
        path: /^\/api\/import/,
        status: 400,
        body: { error: { code: 'invalid_request', message: 'passphrase: wrong passphrase', fields: [{ field: 'passphrase', message: 'wrong passphrase' }] } },
      },
    ]);
    const file = new File(['{"format":"gatehouse-export","version":1,"sealed":"-----BEGIN AGE ENCRYPTED FILE-----"}'], 'export.json');
    await user.upload(await screen.findByLabelText('File'), file);
    await user.type(await screen.findByLabelText('Passphrase'), 'not the right one');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText('passphrase: wrong passphrase')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.headers['X-Gatehouse-Passphrase'] === 'not the right one')).toBe(true));
  });

  it('is read-only for viewers', async () => {
    setup([viewerMe]);
    expect(await screen.findByText('You have read-only access')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Review' })).toBeNull();
  });
});
