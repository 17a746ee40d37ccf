// The audit log, after every other scenario has changed something: the changes are there
// with who made them and a before/after, failed sign-ins are there with the username typed,
// and no secret any scenario typed shows anywhere: not on the page, not in the API, not in
// the CSV download.
import type { Page } from '@playwright/test';
import { expect, test } from '../support/chain';
import { PASSWORD, USER } from '../support/names';
import { navTo, shot, viewports } from '../support/page';

// Every secret the scenarios before this one typed or were shown.
const SECRETS = [
  'very-secret-value', // SSO client secret (settings.mjs)
  PASSWORD,
  'staple-battery-horse-2', // the temporary password (account.mjs)
  'wonderland-2026', // credential set password (credentials.mjs)
  'wrong-0', // a wrong password typed at the lock-out (auth.mjs)
];
// Machine token values and shared-link tokens are random: their shapes.
const SECRET_SHAPES = [/ght_[A-Za-z0-9_-]{12,}/, /gh_link=/];

function leaks(text: string) {
  return [...SECRETS.filter((s) => text.includes(s)), ...SECRET_SHAPES.filter((r) => r.test(text)).map(String)];
}

interface AuditEntry {
  action: string;
  status: number;
  resource: { type: string };
  actor: { kind: string; name?: string };
}

async function allEntries(page: Page) {
  const items: AuditEntry[] = [];
  let before = '';
  for (;;) {
    const res = await page.request.get(`/api/audit?limit=200${before ? `&before=${before}` : ''}`);
    expect(res.ok(), `GET /api/audit answered ${res.status()}`).toBeTruthy();
    const body = await res.json();
    items.push(...body.items);
    if (!body.nextBefore) return { items, text: JSON.stringify(items), failures: body.recordFailures };
    before = body.nextBefore;
  }
}

export function auditLog() {
  test.describe('auditLog', () => {
    test('the audit log shows every change with who made it and what changed', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/');
      await navTo(page, 'Audit log');
      await page.getByRole('heading', { name: 'Audit log', exact: true }).waitFor();
      await page.getByRole('table', { name: /^Audit log, \d+ entries/ }).waitFor();

      const { items, failures } = await allEntries(page);
      expect(failures === 0, `${failures} entries were not recorded`).toBeTruthy();
      const has = (action: string, type: string) => items.some((e) => e.action === action && e.resource.type === type);
      const changes: [string, string][] = [
        ['setup', 'people'],
        ['signin', 'admin.sessions'],
        ['signin_failed', 'admin.sessions'],
        ['create', 'domains'],
        ['create', 'services'],
        ['delete', 'services'],
        ['update', 'config'],
        ['update', 'sso'],
        ['create', 'credential-sets'],
        ['create', 'machine-tokens'],
        ['revoke', 'machine-tokens'],
        ['create', 'services.shared-links'],
        ['update', 'admin.me.password'],
      ];
      for (const [action, type] of changes) {
        expect(has(action, type), `no "${action}" entry for ${type}`).toBeTruthy();
      }
      const failed = items.find((e) => e.action === 'signin_failed');
      expect(failed?.actor.name === USER && failed.status >= 400, `failed sign-in entry: ${JSON.stringify(failed)}`).toBeTruthy();
      expect(items.every((e) => e.actor.kind && (e.actor.name || e.actor.kind === 'system')), 'an entry names nobody').toBeTruthy();

      // The SSO change, opened: the issuer before and after, the secret only as "set".
      await page.getByLabel('Resource type', { exact: true }).fill('sso');
      const table = page.getByRole('table', { name: 'Audit log, 1 entries, newest first' });
      await table.waitFor();
      await table.getByRole('button', { name: /^Changes \(\d+\)$/ }).click();
      const diff = page.getByRole('table', { name: 'Changed fields' });
      // Fields read as words ("Client secret set"), the raw path in the cell's title.
      await diff.getByRole('row', { name: /^Issuer/ }).getByText(/^http:\/\/127\.0\.0\.1:\d+/).waitFor();
      await diff.getByRole('row', { name: /^Client secret set/ }).waitFor();
      await shot(page, 'audit-sso-diff-desktop');
    });

    test('no secret appears on the page, in the API or in the CSV', async ({ page }) => {
      await page.goto('/audit');
      const table = page.getByRole('table', { name: /^Audit log, \d+ entries/ });
      await table.waitFor();
      // Open every entry on the first page, then every older page too.
      for (;;) {
        const more = page.getByRole('button', { name: 'Load older entries' });
        if (!(await more.isVisible())) break;
        await more.click();
        await page.waitForTimeout(300);
      }
      // Each button becomes "Hide changes" once clicked: open the first closed one until none is left.
      const closed = table.getByRole('button', { name: /^Changes \(\d+\)$/ });
      while ((await closed.count()) > 0) await closed.first().click();
      const html = await page.content();
      expect(leaks(html).length === 0, `the audit page shows a secret: ${leaks(html)}`).toBeTruthy();
      await shot(page, 'audit-desktop', { fullPage: false });

      const { text } = await allEntries(page);
      expect(leaks(text).length === 0, `GET /api/audit shows a secret: ${leaks(text)}`).toBeTruthy();

      const href = (await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')) ?? '';
      const csv = await page.request.get(href);
      expect(csv.ok() && (csv.headers()['content-type'] ?? '').startsWith('text/csv'), `CSV download: ${csv.status()}`).toBeTruthy();
      const body = await csv.text();
      expect(body.startsWith('seq,at,actor_kind'), 'the CSV has no header row').toBeTruthy();
      expect(body.split('\n').length > 10, 'the CSV is nearly empty').toBeTruthy();
      expect(leaks(body).length === 0, `the CSV shows a secret: ${leaks(body)}`).toBeTruthy();
    });

    test('the retention setting saves and is itself recorded', async ({ page }) => {
      await page.goto('/audit');
      const input = page.getByLabel('Keep entries for (days)', { exact: true });
      await input.fill('400');
      await page.getByRole('button', { name: 'Save retention' }).click();
      await page.getByText('Retention saved').waitFor();
      await page.reload();
      await page.getByRole('table', { name: /^Audit log, \d+ entries/ }).waitFor();
      expect((await input.inputValue()) === '400', 'the retention was not saved').toBeTruthy();
      const first = page.getByRole('table', { name: /^Audit log/ }).getByRole('row').nth(1);
      await first.getByText('Updated audit log retention').waitFor();
      await page.setViewportSize(viewports.phone);
      await shot(page, 'audit-phone');
      await page.setViewportSize(viewports.desktop);
    });
  });
}
