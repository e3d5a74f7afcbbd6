/**
 * A list opened by its address asks for its first page once: the entry starts that request
 * while the screen's scripts load (crud/first-list.ts) and the list takes its answer instead of
 * asking again — also with a remembered page size, and for the usage log, whose search starts
 * at "now + 1 h".
 */
import { expect, test, type Page } from '@playwright/test';
import { freshStorage, login, ROOT } from './helpers';

/**
 * Cold load of `route`: the GET requests of the list collection `api` it made, once its table
 * shows, and whether the first came before `/api/status` (which the console asks for right
 * after its first render: a list asking only once it has mounted comes after it).
 */
async function listRequests(page: Page, route: string, api: string): Promise<{ seen: URL[]; beforeFirstRender: boolean }> {
  const order: string[] = [];
  const seen: URL[] = [];
  const watch = (request: { method(): string; url(): string }) => {
    const url = new URL(request.url());
    order.push(url.pathname);
    if (request.method() === 'GET' && url.pathname === api) seen.push(url);
  };
  page.on('request', watch);
  await page.goto(route);
  await expect(page.locator('.ant-table-tbody')).toBeVisible();
  await page.waitForLoadState('networkidle');
  page.off('request', watch);
  const status = order.indexOf('/api/status');
  return { seen, beforeFirstRender: status !== -1 && order.indexOf(api) < status };
}

test.beforeEach(async ({ page }) => {
  await freshStorage(page);
  await login(page, ROOT.username, ROOT.password);
});

test('the channel list asks for its first page once, in the remembered page size', async ({ page }) => {
  const first = await listRequests(page, '/channel', '/api/channel/');
  expect(first.seen.map((u) => u.search)).toEqual(['?p=0&page_size=10']);
  expect(first.beforeFirstRender).toBe(true);

  await page.evaluate(() => localStorage.setItem('page-size', '20'));
  const again = await listRequests(page, '/channel', '/api/channel/');
  expect(again.seen.map((u) => u.search)).toEqual(['?p=0&page_size=20']);
  expect(again.beforeFirstRender).toBe(true);
});

test('the usage log asks once, with the same time range the search form shows', async ({ page }) => {
  const { seen, beforeFirstRender } = await listRequests(page, '/log', '/api/log/');
  expect(seen).toHaveLength(1);
  expect(beforeFirstRender).toBe(true);
  const end = Number(seen[0]!.searchParams.get('end_timestamp'));
  // "now + 1 h", taken when the page started loading.
  expect(Math.abs(end - (Date.now() / 1000 + 3600))).toBeLessThan(120);
});
