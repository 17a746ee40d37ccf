// Browser helpers the scenarios share: pages watched by the runner, screenshots, navigation.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const artifacts = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
};

/** A new browser context and page on baseURL, its console and HTTP errors judged by the runner. */
export async function openPage(browser, runner, { baseURL, viewport = viewports.desktop, colorScheme = 'light' }) {
  const context = await browser.newContext({ viewport, colorScheme, baseURL });
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  runner.watch(page);
  return { context, page };
}

/** Follows a link of the main navigation. */
export async function navTo(page, name) {
  await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name, exact: true }).click();
}

async function settle(p) {
  await p.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  // Let skeletons and toasts render.
  await p.waitForTimeout(250);
}

/** Saves e2e/artifacts/<name>.png once the page has settled. */
export async function shot(p, name, { fullPage = true } = {}) {
  await settle(p);
  // Full-page captures of a scrolled page smear the sticky bars; start from the top.
  // Toasts are fixed to the viewport; on a tall full-page capture they land mid-page.
  const tall = await p.evaluate((full) => {
    window.scrollTo(0, 0);
    const isTall = full && document.documentElement.scrollHeight > window.innerHeight + 1;
    const t = document.querySelector('.toasts');
    if (isTall && t) t.style.visibility = 'hidden';
    return isTall;
  }, fullPage);
  await p.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage });
  if (tall) await p.evaluate(() => document.querySelector('.toasts')?.style.removeProperty('visibility'));
}
