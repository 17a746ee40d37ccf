// Access to a service: shared links walked through forward auth, the sessions they open,
// and basic auth with a credential set.
import { expect, handed, test } from '../support/chain';
import { saveProtection, shot, viewports } from '../support/page';

/** Creates a shared link for the service, opens it as Traefik would, then ends the session. */
export function sharedLink() {
  test.describe('sharedLink', () => {
    let sharedUrl = '';

    test('create a shared link with a QR code', async ({ page }) => {
      const { serviceId } = handed;
      await page.goto(`/services/${serviceId}/security`);
      await page.getByRole('heading', { name: 'Shared links', exact: true }).waitFor();
      await page.getByRole('switch', { name: /Accept shared links/ }).click({ force: true });
      await page.getByRole('switch', { name: 'Shared links are accepted' }).waitFor();
      // The tab is one form: a sticky bar says there are unsaved changes until it is saved.
      expect(await page.getByRole('button', { name: 'New link' }).isDisabled(), 'links can be made before the protection is saved').toBeTruthy();
      await shot(page, 'security-unsaved-desktop', { fullPage: false });
      await saveProtection(page);
      await page.getByRole('button', { name: 'New link' }).click();
      const dialog = page.getByRole('dialog', { name: 'New shared link' });
      await dialog.getByLabel('Note', { exact: true }).fill('for Bob');
      await dialog.getByRole('button', { name: 'Create link' }).click();
      const ready = page.getByRole('dialog', { name: 'Link ready' });
      await ready.getByRole('img', { name: 'QR code of the shared link' }).waitFor();
      sharedUrl = await ready.getByTestId('shared-link-url').inputValue();
      expect(/^https?:\/\//.test(sharedUrl), `shared link is not a URL: ${sharedUrl}`).toBeTruthy();
      await shot(page, 'shared-link-desktop', { fullPage: false });
      await ready.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('cell', { name: /for Bob/ }).first().waitFor();
      await page.getByText('Active', { exact: true }).waitFor();
    });

    test('open the shared link through forward auth and see the session', async ({ page, stack }) => {
      const { base } = stack;
      const { serviceId } = handed;
      // Walk the forward-auth flow as Traefik would: each hop is sent to /api/auth/verify
      // with the X-Forwarded-* headers of the original request, carrying cookies along.
      const link = new URL(sharedUrl);
      const jar = new Map<string, string>();
      const verify = (url: URL, method: string, extra: Record<string, string> = {}) =>
        fetch(`${base}/api/auth/verify?service=${encodeURIComponent(serviceId)}`, {
          redirect: 'manual',
          headers: {
            'X-Forwarded-Method': method,
            'X-Forwarded-Proto': url.protocol.replace(':', ''),
            'X-Forwarded-Host': url.host,
            'X-Forwarded-Uri': url.pathname + url.search,
            'X-Forwarded-For': '203.0.113.7',
            Accept: 'text/html',
            Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
            ...extra,
          },
        });
      // Link-preview robots (chat, mail) fetch the link first: they get its page and use nothing.
      for (const method of ['HEAD', 'GET', 'GET']) {
        const res = await verify(link, method);
        expect(res.status === 401 && !(res.headers.getSetCookie?.() ?? []).length, `a ${method} of the link answered ${res.status} or set a cookie`).toBeTruthy();
      }
      // The person's browser shows the page: render it (with its own CSP) and keep a picture.
      const pageRes = await verify(link, 'GET');
      const html = await pageRes.text();
      expect(html.includes('<form method="post"'), 'the link page has no button form').toBeTruthy();
      const preview = await page.context().newPage();
      await preview.setContent(html);
      await preview.getByRole('button', { name: /^Open / }).waitFor();
      await shot(preview, 'shared-link-page-desktop', { fullPage: false });
      await preview.setViewportSize({ width: 390, height: 844 });
      await preview.emulateMedia({ colorScheme: 'dark' });
      await shot(preview, 'shared-link-page-phone-dark', { fullPage: false });
      await preview.close();
      // Its button: a POST to the link from the link's own origin.
      let url = link;
      let method = 'POST';
      let status = 0;
      for (let hop = 0; hop < 6; hop++) {
        const res = await verify(url, method, method === 'POST' ? { Origin: link.origin } : {});
        method = 'GET';
        status = res.status;
        for (const c of res.headers.getSetCookie?.() ?? []) {
          const pair = c.split(';')[0] ?? '';
          const i = pair.indexOf('=');
          jar.set(pair.slice(0, i), pair.slice(i + 1));
        }
        const location = res.headers.get('location');
        if (status >= 300 && status < 400 && location) {
          const next = new URL(location, url);
          if (next.host === link.host || next.pathname.startsWith('/')) {
            url = next;
            continue;
          }
        }
        break;
      }
      expect(jar.size > 0, `forward auth set no cookie (last status ${status})`).toBeTruthy();
      await page.goto('/sessions');
      await page.getByRole('heading', { name: 'Sessions', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Wiki' }).first().waitFor();
      await page.getByText('Shared link', { exact: true }).first().waitFor();
      await shot(page, 'sessions-desktop');
    });

    test('end the session', async ({ page }) => {
      await page.getByRole('button', { name: /^End session of/ }).first().click();
      await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End session' }).click();
      await page.getByText('No active sessions').waitFor();
    });
  });
}

/** Protects the service with the credential set createCredentialSet made. */
export function basicAuth() {
  test.describe('basicAuth', () => {
    test('protect the service with basic auth', async ({ page }) => {
      const { serviceId, credentialSet } = handed;
      await page.goto(`/services/${serviceId}/security`);
      await page.getByRole('switch', { name: 'Require basic auth' }).check({ force: true });
      await page.getByLabel('Credential set', { exact: true }).selectOption({ label: credentialSet });
      await saveProtection(page);
      await page.getByText('Protection saved').waitFor();
      await page.goto('/services');
      await page.getByTitle('Basic auth: on').first().waitFor();
    });
  });
}

/**
 * A shared link with a PIN: made in the panel, its page asks for the PIN (shown in real Chromium,
 * light and dark, phone width), a wrong PIN leaves it unused, too many end in 429, and the right
 * PIN on a fresh link opens it.
 */
export function pinLink() {
  test.describe('pinLink', () => {
    let pinUrl = '';

    test('create a shared link that asks for a PIN', async ({ page }) => {
      const { serviceId } = handed;
      await page.goto(`/services/${serviceId}/security`);
      await page.getByRole('button', { name: 'New link' }).click();
      const dialog = page.getByRole('dialog', { name: 'New shared link' });
      await dialog.getByLabel('Note', { exact: true }).fill('for Dana');
      await dialog.getByLabel('Ask the guest for').selectOption({ label: 'A PIN' });
      await dialog.getByLabel('PIN', { exact: true }).fill('4829');
      await dialog.getByRole('button', { name: 'Create link' }).click();
      const ready = page.getByRole('dialog', { name: 'Link ready' });
      await ready.getByText('The link asks for its PIN').waitFor();
      pinUrl = await ready.getByTestId('shared-link-url').inputValue();
      await ready.getByRole('button', { name: 'Done' }).click();
      const row = page.getByRole('row', { name: /for Dana/ });
      await row.getByText('PIN', { exact: true }).waitFor();
    });

    test('the PIN page, a wrong PIN, and the brute force ending in 429', async ({ page, stack }) => {
      const { base } = stack;
      const { serviceId } = handed;
      const link = new URL(pinUrl);
      const verify = (url: URL, ip: string) =>
        fetch(`${base}/api/auth/verify?service=${encodeURIComponent(serviceId)}`, {
          redirect: 'manual',
          headers: {
            'X-Forwarded-Method': 'GET',
            'X-Forwarded-Proto': url.protocol.replace(':', ''),
            'X-Forwarded-Host': url.host,
            'X-Forwarded-Uri': url.pathname + url.search,
            'X-Forwarded-For': ip,
            'Sec-Fetch-Site': 'same-origin',
            Accept: 'text/html',
          },
        });
      const first = await verify(link, '203.0.113.8');
      const html = await first.text();
      expect(first.status === 401 && html.includes('name="gh_pin"'), `the PIN page: ${first.status}`).toBeTruthy();
      const preview = await page.context().newPage();
      await preview.setContent(html);
      await preview.getByLabel('PIN').waitFor();
      await shot(preview, 'pin-link-page-desktop', { fullPage: false });
      await preview.setViewportSize({ width: 390, height: 844 });
      await preview.emulateMedia({ colorScheme: 'dark' });
      await shot(preview, 'pin-link-page-phone-dark', { fullPage: false });
      const withPin = (pin: string) => new URL(`${link.href}&gh_pin=${pin}`);
      const wrong = await verify(withPin('0000'), '203.0.113.8');
      const wrongHtml = await wrong.text();
      expect(wrong.status === 401 && wrongHtml.includes('That PIN is not right'), `a wrong PIN: ${wrong.status}`).toBeTruthy();
      await preview.setContent(wrongHtml);
      await preview.getByRole('alert').waitFor();
      await shot(preview, 'pin-link-wrong-phone-dark', { fullPage: false });
      await preview.close();
      const statuses: number[] = [];
      for (let i = 1; i <= 6; i++) statuses.push((await verify(withPin(String(1000 + i)), `198.51.100.${i}`)).status);
      expect(statuses.at(-1), `the brute force answered ${statuses.join(', ')}`).toBe(429);
      await page.goto(`/services/${serviceId}/security`);
      const row = page.getByRole('row', { name: /for Dana/ });
      await row.getByText(/5 wrong PINs/).waitFor();
      await row.getByText('Active', { exact: true }).waitFor();
      await page.setViewportSize(viewports.phone);
      // The switch's label: at phone width a forced click on the hidden input may land on what covers it.
      await page.locator('label.switch').filter({ hasText: 'Require basic auth' }).click();
      await page.getByTestId('protection-save-bar').getByText('Unsaved changes').waitFor();
      await shot(page, 'security-unsaved-phone', { fullPage: false });
      await page.getByTestId('protection-save-bar').getByRole('button', { name: 'Discard' }).click();
      await page.getByTestId('protection-save-bar').getByText('All changes saved').waitFor();
      await page.setViewportSize(viewports.desktop);
    });
  });
}
