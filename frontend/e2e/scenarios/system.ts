// System: the panel's version, uptime, data directory, database size and addresses; Traefik's
// connection with a test to run again; the Replicas card says this panel runs alone on SQLite.
import { expect, test } from '../support/chain';
import { navTo, shot, viewports } from '../support/page';

export function system() {
  test.describe('system', () => {
    test('the System page shows the database engine and that this panel runs alone', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/');
      await navTo(page, 'System');
      await page.getByRole('heading', { name: 'System', exact: true }).waitFor();
      const view = await (await page.request.get('/api/cluster')).json();
      expect(view.engine === 'sqlite' && view.replicas.length === 1, `unexpected /api/cluster ${JSON.stringify(view)}`).toBeTruthy();
      await page.getByText('Database engine: SQLite').waitFor();
      await page.getByText(/runs alone on SQLite/).waitFor();
      const info = await (await page.request.get('/api/system/info')).json();
      const panel = page.getByTestId('system-panel');
      await panel.getByText(info.dataDir, { exact: true }).waitFor();
      const text = (await panel.textContent()) ?? '';
      expect(/SQLite, \d+(\.\d)? (KB|MB)/.test(text), `database line: ${text}`).toBeTruthy();
      await page.getByTestId('system-urls').getByText('Not set', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Test Traefik connection' }).click();
      const check = page.getByTestId('connection-check');
      await check.waitFor();
      const provider = (await check.locator('li').first().textContent()) ?? '';
      expect(/^Configuration:/.test(provider), `first item: ${provider}`).toBeTruthy();
      await page.getByRole('button', { name: 'Test again' }).waitFor();
      await shot(page, 'system-desktop');
      await page.setViewportSize(viewports.phone);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow <= 0, `the System page is ${overflow} px wider than the phone`).toBeTruthy();
      await shot(page, 'system-phone');
      await page.setViewportSize(viewports.desktop);
    });
  });
}
