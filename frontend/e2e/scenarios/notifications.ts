// Notifications: a webhook channel pointing at a receiver this scenario runs, created
// through the form; "Send test" delivers to the receiver and the channel shows the
// delivery as successful. The webhook URL (a secret) never comes back from the API.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../support/chain';
import { navTo, shot, viewports } from '../support/page';

interface Receiver {
  server: http.Server;
  received: { path?: string; body: { title?: string } | string }[];
  url: string;
}

function startReceiver(): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        received.push({ path: req.url, body: JSON.parse(body) });
      } catch {
        received.push({ path: req.url, body });
      }
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

export function notifications() {
  test.describe('notifications', () => {
    let receiver: Receiver;
    test.beforeAll(async () => {
      receiver = await startReceiver();
    });
    test.afterAll(() => {
      receiver.server.close();
    });

    test('a webhook channel is created, sends a test to a local receiver and shows it delivered', async ({ page }) => {
      await page.setViewportSize(viewports.desktop);
      await page.goto('/');
      await navTo(page, 'Notifications');
      await page.getByRole('heading', { name: 'Notifications', exact: true }).waitFor();
      await shot(page, 'notifications-empty-desktop');
      await page.getByRole('button', { name: 'New channel' }).click();
      const dialog = page.getByRole('dialog', { name: 'New notification channel' });
      await dialog.getByLabel('Name', { exact: true }).fill('Local receiver');
      await dialog.getByLabel('Service', { exact: true }).selectOption('webhook');
      const hookURL = `${receiver.url}/gatehouse-hook-7c1e`;
      await dialog.getByLabel('Webhook URL').fill(hookURL);
      await dialog.getByLabel('Many failed sign-ins on a service').check();
      await shot(page, 'notifications-form-desktop');
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.getByRole('row', { name: /Local receiver/ });
      await row.getByText('Nothing sent yet').waitFor();

      await row.getByRole('button', { name: 'Send test to Local receiver' }).click();
      await row.getByRole('status').getByText('Test message sent.').waitFor();
      await row.getByText('Delivered').waitFor();
      expect(receiver.received.length === 1, `the receiver got ${receiver.received.length} requests, want 1`).toBeTruthy();
      const got = receiver.received[0];
      expect(got?.path === '/gatehouse-hook-7c1e', `the receiver was called at ${got?.path}`).toBeTruthy();
      expect(typeof got?.body === 'object' && got.body.title === 'Gatehouse test notification', `unexpected body ${JSON.stringify(got?.body)}`).toBeTruthy();
      await shot(page, 'notifications-delivered-desktop');

      const api = await page.request.get('/api/notifications/channels');
      const text = await api.text();
      expect(!text.includes('gatehouse-hook-7c1e'), 'the API returned the webhook URL').toBeTruthy();
      expect(text.includes('"secretsSet":["webhookUrl"]'), `the API does not say the URL is set: ${text}`).toBeTruthy();

      await page.setViewportSize(viewports.phone);
      await shot(page, 'notifications-delivered-phone');
      await page.setViewportSize(viewports.desktop);
    });

    test('editing shows the webhook URL as set, and the channel is deleted', async ({ page }) => {
      await page.getByRole('button', { name: 'Edit Local receiver' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Local receiver' });
      await dialog.getByText('Set. Enter a new value to replace it.').waitFor();
      expect((await dialog.getByLabel('Webhook URL').inputValue()) === '', 'the secret field is not empty').toBeTruthy();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Delete Local receiver' }).click();
      await page.getByRole('dialog', { name: 'Delete Local receiver?' }).getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('No notification channels').waitFor();
    });
  });
}
