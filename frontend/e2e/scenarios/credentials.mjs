// Credential sets for basic auth.

/** Creates the set "Family" with one user; returns its label in the set picker. */
export async function createCredentialSet(t, page) {
  await t.step('credential sets: create one', async () => {
    await page.goto('/credential-sets');
    await page.getByRole('button', { name: /New set|Create a set/ }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Family');
    await dialog.getByLabel('User 1 username', { exact: true }).fill('alice');
    await dialog.getByLabel('User 1 password', { exact: true }).fill('wonderland-2026');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Family', exact: true }).waitFor();
  });
  return 'Family (1 user)';
}
