// System: the Replicas card says what the API says: this panel runs alone on SQLite.
import { navTo, shot, viewports } from '../page.mjs';
import { expect } from '../runner.mjs';

export async function system(t, page) {
  await t.step('the System page shows the database engine and that this panel runs alone', async () => {
    await page.setViewportSize(viewports.desktop);
    await page.goto('/');
    await navTo(page, 'System');
    await page.getByRole('heading', { name: 'System', exact: true }).waitFor();
    const view = await (await page.request.get('/api/cluster')).json();
    expect(view.engine === 'sqlite' && view.replicas.length === 1, `unexpected /api/cluster ${JSON.stringify(view)}`);
    await page.getByText('Database engine: SQLite').waitFor();
    await page.getByText(/runs alone on SQLite/).waitFor();
    await shot(page, 'system-desktop');
  });
}
