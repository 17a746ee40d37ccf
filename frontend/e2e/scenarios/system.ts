// System: the Replicas card says what the API says: this panel runs alone on SQLite.
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
      await shot(page, 'system-desktop');
    });
  });
}
