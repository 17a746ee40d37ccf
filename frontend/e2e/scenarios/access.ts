// Access to a service: shared links walked through forward auth, the sessions they open,
// and basic auth with a credential set.
import { expect, handed, test } from '../support/chain';
import { shot } from '../support/page';

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
      // Like every switch on the service page, it takes effect on Save.
      await page.getByRole('button', { name: 'Save shared links' }).click();
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
      await page.getByRole('button', { name: 'Save basic auth' }).click();
      await page.getByText('Access settings saved').waitFor();
      await page.goto('/services');
      await page.getByTitle('Basic auth: on').first().waitFor();
    });
  });
}
