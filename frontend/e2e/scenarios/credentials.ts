// Credential sets for basic auth.
import { handed, test } from '../support/chain';

/** Creates the set "Family" with one user and hands its label in the set picker on. */
export function createCredentialSet() {
  test.describe('createCredentialSet', () => {
    test('credential sets: create one', async ({ page }) => {
      await page.goto('/credential-sets');
      await page.getByRole('button', { name: /New set|Create a set/ }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name', { exact: true }).fill('Family');
      await dialog.getByLabel('User 1 username', { exact: true }).fill('alice');
      await dialog.getByLabel('User 1 password', { exact: true }).fill('wonderland-2026');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('cell', { name: 'Family', exact: true }).waitFor();
      handed.credentialSet = 'Family (1 user)';
    });
  });
}
