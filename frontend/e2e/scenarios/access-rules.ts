// Access rules and machine access: the service's Access tab (a preset, the rule tester, a
// refused address), a machine token proved through the real Traefik and then revoked, the
// global access log with its filters in the URL, and the global rules page. Requests sent
// through Traefik come from this host (127.0.0.1), which the steps rely on.
import type { Page } from '@playwright/test';
import { allowHttp, eventually, expect, handed, needTraefik, test, type HttpRule } from '../support/chain';
import { DOMAIN } from '../support/names';
import { artifact, navTo, saveProtection, shot, viewports } from '../support/page';

const LAN_NOTE = 'LAN bypass: clients on the local network and on this host skip sign-in';
const TOKEN_NAME = 'backup-bot';
const BAD_SOURCE = '10.0.0.300/8';
const accessSaveRefused: HttpRule = ['PUT', /^\/api\/services\/[^/]+\/access$/, 422];

async function phoneShot(page: Page, name: string) {
  await page.setViewportSize(viewports.phone);
  await shot(page, name);
  await page.setViewportSize(viewports.desktop);
}

// At desktop width the tester sits in a sticky column as tall as the window, which a
// full-page capture cuts off: its captures use a taller window.
const tallDesktop = { width: viewports.desktop.width, height: 1500 };
async function testerShot(page: Page, name: string) {
  await page.setViewportSize(tallDesktop);
  await shot(page, name);
  await page.setViewportSize(viewports.desktop);
}

/** The tester's verdict for one request, once it has answered. */
async function testRequest(page: Page, { url, clientAddress }: { url: string; clientAddress: string }) {
  const tester = page.getByRole('form', { name: 'Rule tester' });
  await tester.getByLabel('URL', { exact: true }).fill(url);
  await tester.getByLabel('Client address', { exact: true }).fill(clientAddress);
  const answered = page.waitForResponse((r) => r.url().endsWith('/access/test') && r.request().method() === 'POST');
  await tester.getByRole('button', { name: 'Test request' }).click();
  expect((await answered).status() === 200, 'the rule tester did not answer 200').toBeTruthy();
  return page.getByRole('region', { name: 'Test result' });
}

/** The Access tab: the LAN bypass preset, the tester, and an address the server refuses. */
export function accessRules() {
  test.describe('accessRules', () => {
    const host = `wiki.${DOMAIN}`;

    test('access tab: insert the LAN bypass preset and save it', async ({ page }) => {
      const { serviceId } = handed;
      const rule1 = page.getByRole('listitem', { name: 'Rule 1' });
      await page.setViewportSize(viewports.desktop);
      await page.goto(`/services/${serviceId}`);
      await page.getByRole('navigation', { name: 'Service sections' }).getByRole('link', { name: 'Access', exact: true }).click();
      await page.waitForURL(`**/services/${serviceId}/access`);
      await page.getByRole('heading', { name: 'Rules (0)', exact: true }).waitFor();
      await page.getByText('No rules', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Insert preset' }).click();
      const dialog = page.getByRole('dialog', { name: 'Insert a preset' });
      await dialog.getByRole('heading', { name: 'LAN bypass', exact: true }).waitFor();
      await shot(page, 'access-presets-desktop', { fullPage: false });
      await dialog.getByRole('button', { name: 'Insert LAN bypass', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await rule1.getByText(LAN_NOTE, { exact: true }).waitFor();
      await page.getByText('Unsaved changes', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Save rules' }).click();
      await page.getByText('Access rules saved').waitFor();
      // Saved for real: a fresh load shows the rule with its note and conditions.
      await page.reload();
      await page.getByRole('heading', { name: 'Rules (1)', exact: true }).waitFor();
      await rule1.getByText(LAN_NOTE, { exact: true }).waitFor();
      const when = await rule1.locator('.rule-when').textContent();
      expect(when === 'when from private, loopback', `unexpected rule summary: ${when}`).toBeTruthy();
      await shot(page, 'access-rules-saved-desktop');
    });

    test('rule tester: a LAN address is allowed, an ambiguous path must sign in', async ({ page }) => {
      let result = await testRequest(page, { url: '/', clientAddress: '192.168.1.5' });
      await result.getByTestId('decision').getByText('Allowed', { exact: true }).waitFor();
      await result.getByText('by rule 1', { exact: true }).waitFor();
      await result.getByText(LAN_NOTE, { exact: false }).first().waitFor();
      expect((await result.getByText('ambiguous', { exact: true }).count()) === 0, 'a plain path is marked ambiguous').toBeTruthy();
      await testerShot(page, 'access-tester-allowed-desktop');

      result = await testRequest(page, { url: '/public/../admin', clientAddress: '203.0.113.9' });
      // The service has basic auth and shared links, so the automatic default asks for them.
      await result.getByTestId('decision').getByText('Sign-in required', { exact: true }).waitFor();
      await result.getByText('by the default action', { exact: true }).waitFor();
      await result.getByText('ambiguous', { exact: true }).waitFor();
      const accepted = await result.locator('dt:has-text("Accepted sign-ins") + dd').textContent();
      expect(/basic auth/.test(accepted ?? ''), `accepted sign-ins do not name basic auth: ${accepted}`).toBeTruthy();
      await testerShot(page, 'access-tester-ambiguous-desktop');
      await phoneShot(page, 'access-tester-ambiguous-phone');
    });

    test('the LAN bypass lets this host through Traefik without signing in', async ({ stack }) => {
        const traefik = needTraefik(stack);
        const res = await eventually(
          async () => {
            const r = await traefik.request(host);
            return r.status === 200 ? r : null;
          },
          { intervalMs: 500 },
        );
        expect(res, 'a request from 127.0.0.1 was not let through by the LAN bypass').toBeTruthy();
        expect(!res?.headers['x-upstream-remote-user'], `an allow rule handed over an identity: ${res?.headers['x-upstream-remote-user']}`).toBeTruthy();
      });

    test('an address the server would refuse is refused on its field, then removed', async ({ page }) => {
      allowHttp(accessSaveRefused);
      const rule1 = page.getByRole('listitem', { name: 'Rule 1' });
      await rule1.getByRole('button', { name: /\bEdit\b/ }).click();
      const sources = page.getByLabel('Rule 1 client addresses', { exact: true });
      await sources.fill(BAD_SOURCE);
      await sources.press('Enter');
      await rule1.getByRole('button', { name: `Remove ${BAD_SOURCE}`, exact: true }).waitFor();
      // The form checks addresses as the server does: nothing is sent.
      await page.getByRole('button', { name: 'Save rules' }).click();
      const error = rule1.getByRole('alert').filter({ hasText: `${BAD_SOURCE} is not an IP address, a CIDR range` });
      await error.waitFor();
      expect((await sources.getAttribute('aria-invalid')) === 'true', 'the refused field is not marked invalid').toBeTruthy();
      const describedBy = (await sources.getAttribute('aria-describedby')) ?? '';
      const errorId = (await error.getAttribute('id')) ?? '';
      expect(errorId && describedBy.split(' ').includes(errorId), 'the error is not tied to its input').toBeTruthy();
      await page.getByText('Unsaved changes', { exact: true }).waitFor();
      // The sticky save bar of a changed form lands mid-page in a full-page capture: capture
      // the window with the refused field in its middle.
      await sources.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: artifact('access-source-error-desktop') });
      await phoneShot(page, 'access-source-error-phone');

      await rule1.getByRole('button', { name: `Remove ${BAD_SOURCE}`, exact: true }).click();
      await error.waitFor({ state: 'detached' });
      await page.getByText('Saved', { exact: true }).waitFor();
    });

    test('requests from this host must sign in once loopback leaves the LAN bypass', async ({ page, stack }) => {
      const rule1 = page.getByRole('listitem', { name: 'Rule 1' });
      const { traefik } = stack;
      await rule1.getByRole('button', { name: 'Remove loopback', exact: true }).click();
      await page.getByRole('button', { name: 'Save rules' }).click();
      await page.getByText('Access rules saved').first().waitFor();
      await page.getByText('Saved', { exact: true }).waitFor();
      const when = await rule1.locator('.rule-when').textContent();
      expect(when === 'when from private', `unexpected rule summary: ${when}`).toBeTruthy();
      if (!traefik) return;
      const refused = await eventually(async () => (await traefik.request(host)).status === 401, { intervalMs: 500 });
      expect(refused, 'a request without credentials still got through').toBeTruthy();
    });
  });
}

/** Turns on the Machine tokens protection, makes a token, proves it through Traefik, revokes it. */
export function machineTokens() {
  test.describe('machineTokens', () => {
    const host = `wiki.${DOMAIN}`;
    let value = '';

    test('security tab: turn on machine tokens', async ({ page }) => {
      const { serviceId } = handed;
      await page.setViewportSize(viewports.desktop);
      await page.goto(`/services/${serviceId}/access`);
      await page.getByRole('navigation', { name: 'Service sections' }).getByRole('link', { name: 'Security', exact: true }).click();
      await page.getByRole('heading', { name: 'Machine tokens', exact: true }).waitFor();
      await page.getByRole('switch', { name: 'Accept machine tokens' }).check({ force: true });
      await saveProtection(page);
      await page.getByText('Protection saved').first().waitFor();
      const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Machine tokens', exact: true }) });
      await card.getByText('On', { exact: true }).waitFor();
    });

    test('create a token for the service; its value is shown once', async ({ page }) => {
      await page.getByRole('link', { name: 'New token for this service' }).click();
      await page.waitForURL('**/machine-tokens?new=*');
      const dialog = page.getByRole('dialog', { name: 'New machine token' });
      await dialog.getByRole('checkbox', { name: /Wiki/ }).waitFor();
      expect(await dialog.getByRole('checkbox', { name: /Wiki/ }).isChecked(), 'the service is not ticked').toBeTruthy();
      await dialog.getByLabel('Name', { exact: true }).fill(TOKEN_NAME);
      await shot(page, 'machine-token-new-desktop', { fullPage: false });
      await dialog.getByRole('button', { name: 'Create token' }).click();
      const ready = page.getByRole('dialog', { name: 'Token ready' });
      // Copied from the page itself: the API never answers the value again.
      value = await ready.getByLabel('Token value', { exact: true }).inputValue();
      expect(/^ght_\S{20,}$/.test(value), `unexpected token value: ${value}`).toBeTruthy();
      await ready.getByText(`Authorization: Bearer ${value}`, { exact: true }).waitFor();
      await ready.getByText(`Remote-User: token:${TOKEN_NAME}`, { exact: true }).waitFor();
      expect((await ready.getByText('Before it works').count()) === 0, 'the token warns although the service accepts tokens').toBeTruthy();
      await shot(page, 'machine-token-ready-desktop', { fullPage: false });
      await ready.getByRole('button', { name: 'I have copied it' }).click();
      await ready.waitFor({ state: 'detached' });
      const row = page.getByRole('row').filter({ hasText: TOKEN_NAME });
      await row.getByText('Active', { exact: true }).waitFor();
      await row.getByRole('link', { name: 'Wiki' }).waitFor();
      expect(!(await page.content()).includes(value), 'the token value is still on the page after closing').toBeTruthy();
    });

    test('the token opens the service through Traefik as token:<name>', async ({ stack }) => {
        const traefik = needTraefik(stack);
        const bearer = { headers: { Authorization: `Bearer ${value}` } };
        let status = 0;
        const res = await eventually(
          async () => {
            const r = await traefik.request(host, bearer);
            status = r.status;
            return r.status === 200 ? r : null;
          },
          { intervalMs: 500 },
        );
        expect(res, `the token was refused with ${status}`).toBeTruthy();
        const user = res?.headers['x-upstream-remote-user'];
        expect(user === `token:${TOKEN_NAME}`, `the upstream got Remote-User ${user}`).toBeTruthy();
      });

    test('revoke the token; Traefik refuses it within seconds', async ({ page, stack }) => {
      const { traefik } = stack;
      await page.getByRole('button', { name: `Revoke ${TOKEN_NAME}` }).click();
      const confirm = page.getByRole('dialog', { name: `Revoke ${TOKEN_NAME}?` });
      await confirm.getByRole('button', { name: 'Revoke token' }).click();
      const revokedAt = Date.now();
      await confirm.waitFor({ state: 'detached' });
      const row = page.getByRole('row').filter({ hasText: TOKEN_NAME });
      await row.getByText('Revoked', { exact: true }).waitFor();
      if (traefik) {
        // Each refused try counts towards the wrong-token limit (10 per 15 minutes), so poll gently.
        const bearer = { headers: { Authorization: `Bearer ${value}` } };
        let status = 0;
        const refused = await eventually(
          async () => {
            status = (await traefik.request(host, bearer)).status;
            return status === 401;
          },
          { timeoutMs: 5000, intervalMs: 1000 },
        );
        expect(refused, `the revoked token still answered ${status}`).toBeTruthy();
        console.log(`    revoked token refused through Traefik ${Date.now() - revokedAt} ms after the confirmation`);
      }
      await shot(page, 'machine-tokens-revoked-desktop');
      await phoneShot(page, 'machine-tokens-revoked-phone');
    });
  });
}

/** The global access log shows the requests above; its filters live in the URL. */
export function accessLog() {
  test.describe('accessLog', () => {
    test('access log: decisions for the requests, filters kept in the URL', async ({ page, stack }) => {
      const { traefik } = stack;
      await page.setViewportSize(viewports.desktop);
      await navTo(page, 'Access log');
      await page.getByRole('heading', { name: 'Access log', exact: true }).waitFor();
      const rows = page.getByRole('row');
      if (traefik) {
        const tokenRow = rows.filter({ hasText: `token:${TOKEN_NAME}` }).first();
        await tokenRow.getByText('Authenticated', { exact: true }).waitFor();
        await tokenRow.getByText('machine token', { exact: true }).waitFor();
        await rows.filter({ hasText: 'service rule 1' }).first().getByText('Allowed', { exact: true }).waitFor();
        // A request without credentials reads as such, not as a wrong password.
        await rows.filter({ hasText: /No credentials|Wrong password/ }).first().waitFor();
      } else {
        await rows.nth(1).waitFor();
      }
      await shot(page, 'access-log-live-desktop');

      await page.getByLabel('Decision', { exact: true }).selectOption('authenticated');
      await page.waitForURL(/[?&]decision=authenticated/);
      await page.getByLabel('Identity', { exact: true }).fill(`token:${TOKEN_NAME}`);
      await page.waitForURL((u) => u.searchParams.get('identity') === `token:${TOKEN_NAME}`);
      // A fresh load of the same address keeps the filters and the list they select.
      await page.reload();
      await page.getByRole('heading', { name: 'Access log', exact: true }).waitFor();
      expect((await page.getByLabel('Decision', { exact: true }).inputValue()) === 'authenticated', 'the decision filter was lost').toBeTruthy();
      expect((await page.getByLabel('Identity', { exact: true }).inputValue()) === `token:${TOKEN_NAME}`, 'the identity filter was lost').toBeTruthy();
      if (traefik) {
        await rows.filter({ hasText: `token:${TOKEN_NAME}` }).first().waitFor();
        const decisions = await page.locator('tbody td[data-label="Decision"]').allTextContents();
        expect(decisions.length > 0 && decisions.every((d) => d.trim() === 'Authenticated'), `filtered rows: ${decisions.join(', ')}`).toBeTruthy();
      } else {
        await page.getByText('No matching requests').waitFor();
      }
      await shot(page, 'access-log-filtered-desktop');
      await phoneShot(page, 'access-log-filtered-phone');
    });
  });
}

/** The global rules page loads with its editor; nothing is saved, so other services keep their behaviour. */
export function globalRules() {
  test.describe('globalRules', () => {
    test('global rules page shows its editor', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await navTo(page, 'Access rules');
      await page.getByRole('heading', { name: 'Global access rules', exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Global rules (0)', exact: true }).waitFor();
      await page.getByText('No rules', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Insert preset' }).waitFor();
      await shot(page, 'global-rules-empty-desktop');
      await phoneShot(page, 'global-rules-empty-phone');
      // A new rule opens for editing; discarding it leaves the saved (empty) list.
      await page.getByRole('button', { name: 'Add rule' }).click();
      const rule = page.getByRole('listitem', { name: 'Rule 1' });
      await rule.getByLabel('Rule 1 note', { exact: true }).fill('office');
      await rule.getByText('office', { exact: true }).waitFor();
      await page.getByText('Unsaved changes', { exact: true }).waitFor();
      // A new rule cannot open anything by itself; an allow without conditions says what it does.
      const action = rule.getByLabel('Rule 1 action', { exact: true });
      expect((await action.inputValue()) === 'authenticate', 'a new rule does not start as authenticate').toBeTruthy();
      await rule.screenshot({ path: artifact('global-rules-new-rule-desktop') });
      await action.selectOption('allow');
      await rule.getByText(/Allows every request without signing in/).waitFor();
      await rule.screenshot({ path: artifact('global-rules-allow-everyone-desktop') });
      await page.getByRole('button', { name: 'Discard' }).click();
      await page.getByText('No rules', { exact: true }).waitFor();
    });
  });
}
