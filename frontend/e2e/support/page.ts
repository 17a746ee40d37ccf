// Browser helpers the scenarios share: watched pages, screenshots, navigation.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { judge } from './judge';

/** Where the screenshots of every page go (the Playwright report keeps traces and failures). */
export const artifacts = path.join(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
};

export interface OpenPageOptions {
  baseURL: string;
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

/** A new browser context and page on baseURL, its console and HTTP errors judged per test. */
export async function openPage(browser: Browser, { baseURL, viewport = viewports.desktop, colorScheme = 'light' }: OpenPageOptions) {
  const context = await browser.newContext({ viewport, colorScheme, baseURL });
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  judge.watch(page);
  return { context, page };
}

/** Follows a link of the main navigation, unfolding its group first when it is folded. */
export async function navTo(page: Page, name: string): Promise<void> {
  const nav = page.getByRole('complementary', { name: 'Main navigation' });
  const link = nav.getByRole('link', { name, exact: true });
  // Each click unfolds one group: the next folded one is first again.
  const folded = nav.locator('button.nav-group-toggle[aria-expanded="false"]');
  for (let i = 0; i < 8 && !(await link.isVisible()) && (await folded.count()) > 0; i++) await folded.first().click();
  await link.click();
}

async function settle(p: Page) {
  await p.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  // Let skeletons and toasts render.
  await p.waitForTimeout(250);
}

/** Saves e2e/artifacts/<name>.png once the page has settled. */
export async function shot(p: Page, name: string, { fullPage = true } = {}): Promise<void> {
  await settle(p);
  // Full-page captures of a scrolled page smear the sticky bars; start from the top.
  // Toasts are fixed to the viewport; on a tall full-page capture they land mid-page.
  const tall = await p.evaluate((full) => {
    window.scrollTo(0, 0);
    const isTall = full && document.documentElement.scrollHeight > window.innerHeight + 1;
    const t = document.querySelector<HTMLElement>('.toasts');
    if (isTall && t) t.style.visibility = 'hidden';
    return isTall;
  }, fullPage);
  await p.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage });
  if (tall) await p.evaluate(() => document.querySelector<HTMLElement>('.toasts')?.style.removeProperty('visibility'));
}

/** The path of e2e/artifacts/<name>.png, for captures shot() does not take (an element, the window as it is). */
export function artifact(name: string): string {
  return path.join(artifacts, `${name}.png`);
}

/** Saves the service's Security tab: its one form, from the sticky bar. */
export async function saveProtection(page: Page): Promise<void> {
  const bar = page.getByTestId('protection-save-bar');
  await bar.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
  await bar.getByRole('button', { name: 'Save protection' }).click();
  await bar.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
}

/** Opens a tab of the service form (Details, TLS and HTTPS, Load balancing, Advanced). */
export async function serviceTab(page: Page, name: 'Details' | 'TLS and HTTPS' | 'Load balancing' | 'Advanced'): Promise<void> {
  await page.getByRole('tablist', { name: 'Service settings' }).getByRole('tab', { name: new RegExp(`^${name}`) }).click();
}

/** Signs in on the panel's sign-in page as the given administrator and waits for the dashboard. */
export async function signInToPanel(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
}
