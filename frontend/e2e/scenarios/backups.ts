// Backups: "Back up now" writes an archive that the list shows; its download is a gzip
// whose first tar entry is manifest.json naming a gatehouse-backup.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '../support/chain';
import { navTo, shot, viewports } from '../support/page';

/** The name and body of a tar archive's first entry (ustar: name at 0, size in octal at 124). */
function firstEntry(tar: Buffer) {
  const name = tar.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
  const size = parseInt(tar.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim(), 8);
  return { name, body: tar.subarray(512, 512 + size).toString('utf8') };
}

export function backups() {
  test.describe('backups', () => {
    test('a backup taken from the UI is listed and downloads as a gzip with a manifest', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/');
      await navTo(page, 'Backups');
      await page.getByRole('heading', { name: 'Backups', exact: true }).waitFor();
      const names = async () => (await (await page.request.get('/api/backups')).json()).backups.map((b: { name: string }) => b.name) as string[];
      const before = await names();
      await page.getByRole('button', { name: 'Back up now' }).click();
      await page.getByText('Backup written').waitFor();
      const added = (await names()).filter((n) => !before.includes(n));
      expect(added.length === 1, `the API lists ${added.length} new backups, want 1`).toBeTruthy();
      const manual = page.getByRole('table', { name: 'Backups' }).getByRole('row', { name: new RegExp((added[0] ?? '').replace(/\./g, '\\.')) });
      await manual.waitFor();
      await manual.getByText('By hand').waitFor();
      await manual.getByText(/seconds? ago|now/).waitFor();
      await shot(page, 'backups-desktop');

      const [download] = await Promise.all([page.waitForEvent('download'), manual.getByRole('link', { name: /Download/ }).click()]);
      const path = await download.path();
      const raw = readFileSync(path);
      expect(raw[0] === 0x1f && raw[1] === 0x8b, 'the download is not gzip').toBeTruthy();
      const entry = firstEntry(gunzipSync(raw));
      expect(entry.name === 'manifest.json', `the first entry is ${entry.name}`).toBeTruthy();
      const manifest = JSON.parse(entry.body);
      expect(manifest.format === 'gatehouse-backup' && manifest.version === 1, `unexpected manifest ${entry.body}`).toBeTruthy();
      expect(manifest.trigger === 'manual', `trigger ${manifest.trigger}`).toBeTruthy();
      expect(
        manifest.files.some((f: { name: string }) => f.name === 'gatehouse.db'),
        'the manifest lists no database',
      ).toBeTruthy();
      expect(download.suggestedFilename().endsWith('.tar.gz'), `file name ${download.suggestedFilename()}`).toBeTruthy();

      await page.setViewportSize(viewports.phone);
      await shot(page, 'backups-phone');
      await page.setViewportSize(viewports.desktop);
    });
  });
}
