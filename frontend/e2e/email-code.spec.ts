// A visitor without an account reaches a service protected by an e-mail code, in Chromium,
// through a real Traefik, on a panel of its own whose codes go through a real SMTP receiver
// (go-smtp, backend/scripts/smtpreceiver): the admin turns the protection on in the Security
// tab; the visitor types an allowed address, reads the code from the mail and is in; an
// address that is not allowed sees the same page and gets no mail; guessing ends in 429.
import { chromium, type Browser, type Page } from '@playwright/test';
import { freePort, type Traefik } from './support/harness';
import { PASSWORD, USER } from './support/names';
import { openPage, saveProtection, shot, signInToPanel } from './support/page';
import { addMailChannel, startReceiver, stopReceiver, type Receiver } from './support/smtp';
import { allowHttp, test as base, eventually, expect } from './support/test';

const HOST = 'code.e2e.test';

interface CodeStack {
  panel: string;
  traefik: Traefik;
  smtp: Receiver;
  admin: Page;
  serviceId: string;
  /** A browser whose DNS sends HOST to Traefik's websecure entrypoint. */
  visitors: Browser;
}

const test = base.extend<{ page: Page }, { codeStack: CodeStack | null }>({
  codeStack: [
    async ({ harness, browser }, use) => {
      const port = await freePort();
      const panelURL = `http://127.0.0.1:${port}`;
      const panel = await harness.startPanel({
        port,
        env: { PANEL_PUBLIC_URL: panelURL, PANEL_ADMIN_USER: USER, PANEL_ADMIN_PASSWORD: PASSWORD },
        dirPrefix: 'gatehouse-e2e-code-',
      });
      await panel.ready();
      const traefik = await harness.startTraefik(port);
      if (!traefik) {
        await use(null);
        return;
      }
      const smtp = await startReceiver();
      const upstream = await harness.startUpstream();
      const { context, page: admin } = await openPage(browser, { baseURL: panelURL });
      await signInToPanel(admin, USER, PASSWORD);
      await addMailChannel(admin, smtp, 'people mail');
      const svc = await (
        await admin.request.post('/api/services', {
          data: {
            name: 'Photos',
            hostnames: [{ type: 'custom', value: HOST }],
            targets: [{ host: '127.0.0.1', port: upstream.port }],
            entrypoints: ['websecure'],
          },
        })
      ).json();
      // Chromium resolves HOST to Traefik's websecure port; the address bar keeps https://HOST/.
      const visitors = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', `--host-resolver-rules=MAP ${HOST} 127.0.0.1:${traefik.websecure}`],
      });
      await use({ panel: panelURL, traefik, smtp, admin, serviceId: svc.id as string, visitors });
      await visitors.close();
      await context.close();
      stopReceiver(smtp);
    },
    { scope: 'worker' },
  ],
  page: async ({ codeStack }, use) => {
    await use(codeStack!.admin);
  },
});

test.describe.configure({ mode: 'serial' });

async function visitor(stack: CodeStack): Promise<Page> {
  const context = await stack.visitors.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  return page;
}

test.describe('emailCode', () => {
  test('the admin chooses the mail channel and turns e-mail codes on', async ({ page, codeStack }) => {
    test.skip(!codeStack, 'needs a Traefik binary');
    const stack = codeStack!;
    await page.goto('/notifications');
    await page.getByLabel(/E-mail to people goes through/).selectOption({ label: 'people mail' });
    await page.getByRole('form', { name: 'Notification settings' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText(/saved/i).first().waitFor();
    await page.goto(`/services/${stack.serviceId}/security`);
    await page.getByRole('heading', { name: 'E-mail code', exact: true }).waitFor();
    await page.getByRole('switch', { name: /code sent by e-mail/ }).click({ force: true });
    const list = page.getByLabel(/Who may ask for a code/);
    await list.fill('friends.test');
    await list.press('Enter');
    await page.getByLabel(/stay signed in/).selectOption({ label: '7 days' });
    await saveProtection(page);
    await page.getByText('Protection saved').waitFor();
    await shot(page, 'service-security-email-code-desktop');
  });

  test('an allowed visitor gets a code by mail and reaches the service', async ({ codeStack }) => {
    test.skip(!codeStack, 'needs a Traefik binary');
    const stack = codeStack!;
    const v = await visitor(stack);
    // Traefik picks the protection up within its poll interval.
    await eventually(async () => {
      await v.goto(`https://${HOST}/album?id=7`);
      return v.url().startsWith(`${stack.panel}/api/auth/email-code?`);
    });
    await v.getByRole('heading', { name: 'Sign in to Photos' }).waitFor();
    await shot(v, 'email-code-ask-desktop', { fullPage: false });
    await v.getByLabel('E-mail address').fill('ann@friends.test');
    await v.getByRole('button', { name: 'Send me a code' }).click();
    await v.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const mail = await eventually(() => stack.smtp.mails.find((m) => m.to.includes('ann@friends.test')), { timeoutMs: 10000, intervalMs: 100 });
    const code = /: (\d{6})$/.exec(mail?.subject ?? '')?.[1];
    expect(code, `no code in ${JSON.stringify(mail)}`).toBeTruthy();
    await v.getByLabel('Six-digit code').fill(code!);
    await shot(v, 'email-code-enter-desktop', { fullPage: false });
    await v.getByRole('button', { name: 'Continue to Photos' }).click();
    await v.waitForURL(`https://${HOST}/album?id=7`);
    await v.getByText('hello from the wiki upstream').waitFor();
    await v.context().close();
  });

  test('an address that is not allowed sees the same page and gets no mail; guessing ends in 429', async ({ codeStack }) => {
    test.skip(!codeStack, 'needs a Traefik binary');
    const stack = codeStack!;
    allowHttp(['POST', /^\/api\/auth\/email-code\/verify$/, 401], ['POST', /^\/api\/auth\/email-code\/verify$/, 429]);
    const before = stack.smtp.mails.length;
    const v = await visitor(stack);
    await v.goto(`https://${HOST}/`);
    await v.getByLabel('E-mail address').fill('eve@elsewhere.test');
    await v.getByRole('button', { name: 'Send me a code' }).click();
    await v.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await v.getByText('If eve@elsewhere.test may use Photos, a six-digit code is on its way').waitFor();
    await new Promise((r) => setTimeout(r, 1500));
    expect(stack.smtp.mails.length, 'a mail went to an address that is not allowed').toBe(before);
    let tries = 0;
    for (; tries < 30; tries++) {
      await v.getByLabel('Six-digit code').fill(String(100000 + tries));
      const [res] = await Promise.all([
        v.waitForResponse((r) => r.url().endsWith('/api/auth/email-code/verify')),
        v.getByRole('button', { name: 'Continue to Photos' }).click(),
      ]);
      if (res.status() === 429) {
        await v.getByRole('heading', { name: 'Too many attempts' }).waitFor();
        break;
      }
      expect(res.status(), 'a guessed code was not refused').toBe(401);
      await v.getByText('That code is not right, or it has expired.').waitFor();
    }
    expect(tries, 'guessing was never cut off').toBeLessThan(30);
    await shot(v, 'email-code-too-many-desktop', { fullPage: false });
    await v.context().close();
  });
});
