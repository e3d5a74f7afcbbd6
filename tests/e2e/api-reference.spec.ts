/**
 * The console API reference (/api-reference, admins): reached from the settings page, lists
 * the operations of /api/openapi.json by area with their fields, filters them, and is a chunk
 * of its own that the sign-in page does not load.
 */
import { expect, test } from '@playwright/test';
import { login, ROOT, shot } from './helpers';

test('an admin reads the console API reference, whose code the sign-in page never loads', async ({ page }) => {
  const loaded: string[] = [];
  page.on('request', (request) => loaded.push(request.url()));
  await page.goto('/login');
  await expect(page.getByTestId('login-username')).toBeVisible();
  expect(loaded.filter((url) => url.includes('api-reference'))).toEqual([]);

  await login(page, ROOT.username, ROOT.password);
  await page.getByRole('button', { name: '确定' }).click();
  await page.goto('/setting');
  await page.getByRole('link', { name: 'API 参考' }).click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByText('控制台 API 参考')).toBeVisible();

  // The token area, its create operation and the fields of the entity schema behind it.
  await expect(page.getByRole('heading', { name: 'token', exact: true })).toBeVisible();
  await page.getByPlaceholder('按路径或方法筛选').fill('/api/token/');
  await expect(page.getByRole('heading', { name: 'channel', exact: true })).toHaveCount(0);
  const create = page.locator('.ant-collapse-item').filter({ hasText: 'POST' }).filter({ hasText: '/api/token/' });
  await create.locator('.ant-collapse-header').click();
  const nameRow = create.locator('tr').filter({ has: page.locator('code', { hasText: /^name$/ }) });
  await expect(nameRow).toContainText('≤ 30 chars');
  await shot(page, 'api-reference');
});
