/**
 * The sign-in page is prerendered by the build (scripts/prerender-login.ts) and hydrated:
 * its form shows and takes typing before the console's scripts have run, a submit made then
 * signs in once they have, and a visitor the markup was not made for never sees it.
 */
import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { freshStorage, ROOT } from './helpers';

/** Holds the console's entry script until `release()`: the page stays as the server sent it. */
async function holdEntry(page: Page): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

const hydrationErrors = (page: Page) => page.evaluate(() => (window as unknown as { __hydrationErrors?: string[] }).__hydrationErrors ?? []);

test.beforeEach(async ({ page }) => {
  await freshStorage(page);
});

test('the form shows and takes typing before the scripts run; a submit made then signs in once they have', async ({ page }) => {
  const logins: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/user/login') logins.push(r.method());
  });
  const entry = await holdEntry(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const password = page.getByTestId('login-password');
  await expect(password).toBeVisible();
  await expect(page.getByTestId('login-submit')).toBeEnabled();
  await expect(page.locator('html')).toHaveAttribute('data-prerender', 'on');
  // Marks the prerendered nodes: hydration keeps them (a mismatch would make new ones).
  await password.evaluate((el) => ((el as HTMLElement).dataset.fromServer = 'yes'));
  await page.getByTestId('login-username').fill(ROOT.username);
  await password.fill(ROOT.password);
  await page.getByTestId('login-submit').click();
  // Held, not sent as a native form (which would put the password in the address).
  await page.waitForTimeout(300);
  expect(new URL(page.url()).pathname).toBe('/login');
  expect(new URL(page.url()).search).toBe('');
  expect(logins).toEqual([]);

  entry.release();
  await expect(page).not.toHaveURL(/\/login/);
  expect(logins).toEqual(['POST']);
  expect(await hydrationErrors(page)).toEqual([]);
});

test('hydration keeps the markup and what was typed; the stored site name shows right after', async ({ page }) => {
  // At the document's start: the status the previous page asked for may still be on its way to being stored.
  await page.addInitScript(() => localStorage.setItem('status', JSON.stringify({ system_name: '我的网关' })));
  // The server's status (whose name is the default) is held, so the stored one shows.
  let answerStatus!: () => void;
  const statusHeld = new Promise<void>((resolve) => (answerStatus = resolve));
  await page.route('**/api/status', async (route) => {
    await statusHeld;
    await route.continue();
  });
  const entry = await holdEntry(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const password = page.getByTestId('login-password');
  await expect(password).toBeVisible();
  // The prerendered brand is unseen: no default name or logo shows before the site's own.
  await expect(page.locator('.sy-brand-name').getByText('Switchyard')).toBeHidden();
  await expect(page.locator('.sy-brand img')).toBeHidden();
  await expect(page.locator('.sy-account-head img')).toBeHidden();
  await password.evaluate((el) => ((el as HTMLElement).dataset.fromServer = 'yes'));
  await password.fill('typed-early');
  entry.release();
  await expect(page.locator('.sy-brand-name')).toHaveText('我的网关');
  await expect(page.locator('.sy-footer')).toContainText('我的网关');
  await expect(password).toHaveAttribute('data-from-server', 'yes');
  await expect(password).toHaveValue('typed-early');
  expect(await hydrationErrors(page)).toEqual([]);
  answerStatus();
  await expect(page.locator('.sy-brand-name')).toHaveText('Switchyard');
  // The page works as before: a wrong password is refused with the server's message.
  await page.getByTestId('login-username').fill(ROOT.username);
  await page.getByTestId('login-submit').click();
  await expect(page.locator('.ant-message-notice')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('an English visitor never sees the Chinese prerender, and gets the English form', async ({ page }) => {
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  const entry = await holdEntry(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.locator('html')).toHaveAttribute('data-prerender', 'off');
  await expect(page.locator('#root')).toBeHidden();
  await expect(page.getByTestId('login-password')).toBeHidden();
  entry.release();
  await expect(page.getByPlaceholder('Password')).toBeVisible();
  await expect(page.getByTestId('top-nav').getByText('Home')).toBeVisible();
  expect(await hydrationErrors(page)).toEqual([]);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the desktop prerender is not shown; the phone layout comes with the console', async ({ page }) => {
    const entry = await holdEntry(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await expect(page.locator('html')).toHaveAttribute('data-prerender', 'off');
    await expect(page.locator('#root')).toBeHidden();
    entry.release();
    await expect(page.getByTestId('open-menu')).toBeVisible();
    await expect(page.getByTestId('login-password')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

test('a dark-theme visitor gets the dark form, not the light prerender', async ({ page }) => {
  await page.evaluate(() => localStorage.setItem('theme-mode', 'dark'));
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-prerender', 'off');
  await expect(page.getByTestId('login-password')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test("the page paints with the form's antd styles alone; the console hydrates with the whole stylesheet, making none at run time", async ({ page }) => {
  const entry = await holdEntry(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const submit = page.getByTestId('login-submit');
  await expect(submit).toBeVisible();
  // Before the console runs: antd's styles come from the page's own <style>, and the form is styled by them.
  const sheets = () =>
    page.evaluate(() => [...document.styleSheets].map((sheet) => (sheet.ownerNode as Element).getAttribute('href') ?? (sheet.ownerNode as Element).getAttribute('data-login-styles') ?? 'inline'));
  expect(await sheets()).toContain('');
  expect(await submit.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(37, 99, 235)');
  entry.release();
  await expect(page.locator('html')).toHaveAttribute('data-console', 'ready');
  // The whole antd stylesheet is applied right after the page's own antd styles, before the console's (which override antd's).
  const order = await sheets();
  const own = order.indexOf('');
  expect(order[own + 1]).toMatch(/^\/assets\/antd-[\w-]+\.css$/);
  // antd found every style it needed in the stylesheets: none made at run time.
  expect(await page.locator('style[data-css-hash]').count()).toBe(0);
  expect(await submit.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(37, 99, 235)');
  expect(await hydrationErrors(page)).toEqual([]);
});

test('after hydration the expired notice shows on the prerendered page', async ({ page }) => {
  await page.goto('/login?expired=true');
  await expect(page.getByTestId('expired-notice')).toBeVisible();
  expect(await hydrationErrors(page)).toEqual([]);
});

test('the server sends the prerendered page for /login only, never cached', async ({ request }) => {
  const login = await request.get('/login');
  expect(login.headers()['cache-control']).toBe('no-cache');
  const html = await login.text();
  expect(html).toContain('data-prerendered="/login"');
  expect(html).toContain('data-testid="login-password"');
  // Its early script is inline, allowed by its hash: the page's CSP allows no other inline script.
  const early = /<head>\s*<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(early).toContain('data-prerender');
  const policy = login.headers()['content-security-policy'] ?? '';
  const scriptSrc = policy.split(';').find((d) => d.startsWith('script-src '));
  expect(scriptSrc).toBeDefined();
  expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(early!).digest('base64')}'`);
  expect(scriptSrc).not.toContain('unsafe-inline');
  // What the first paint needs is in the page: no stylesheet or script to wait for.
  expect(html).not.toMatch(/<link rel="stylesheet"/);
  expect(html).not.toMatch(/<script[^>]* src=/);
  const home = await (await request.get('/register')).text();
  expect(home).not.toContain('data-prerendered');
  expect(home).toContain('<div id="root"></div>');
});
