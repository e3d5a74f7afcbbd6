/**
 * An administrator is offered no action the server would refuse: none on root's row or on
 * another administrator's, and no promote or demote (only root makes administrators); on an
 * ordinary user's row, edit, disable and delete. Root keeps every action. In both languages.
 */
import { expect, test, type Page } from '@playwright/test';
import { callApi, rowWith, signInRoot } from './gateway-helpers';
import { login } from './helpers';

const ADMIN = { username: 'rankadmin', password: 'rankadmin-pass1' };
const OTHER_ADMIN = { username: 'rankadmin2', password: 'rankadmin-pass2' };
const COMMON = { username: 'rankuser', password: 'rankuser-pass1' };

async function ensure(page: Page, user: { username: string; password: string }, admin: boolean): Promise<void> {
  const found = await callApi<{ items: { id: number; username: string; role: number }[] }>(page, 'get', `/api/user/search?keyword=${user.username}`);
  let existing = found.data.items.find((u) => u.username === user.username);
  if (!existing) {
    expect((await callApi(page, 'post', '/api/user/', { username: user.username, password: user.password, display_name: user.username })).success).toBe(true);
    existing = (await callApi<{ items: { id: number; username: string; role: number }[] }>(page, 'get', `/api/user/search?keyword=${user.username}`)).data.items.find(
      (u) => u.username === user.username,
    )!;
  }
  if (admin && existing.role < 10) expect((await callApi(page, 'post', '/api/user/manage', { id: existing.id, action: 'promote' })).success).toBe(true);
}

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInRoot(page);
  await ensure(page, ADMIN, true);
  await ensure(page, OTHER_ADMIN, true);
  await ensure(page, COMMON, false);
  await page.close();
});

/** The row of `name`: the cells' texts run together, so the name is matched with the group after it. */
const rowOf = (page: Page, name: string) => rowWith(page, new RegExp(`${name}(Root User)?default`));
const actionsOf = (page: Page, name: string) => rowOf(page, name).locator('[data-testid^="row-action-"]');

for (const lang of ['zh', 'en'] as const) {
  test(`an administrator gets no actions on root or other administrators (${lang})`, async ({ page }) => {
    await login(page, ADMIN.username, ADMIN.password);
    await page.evaluate((l) => localStorage.setItem('language', l), lang);
    await page.goto('/user');
    await expect(rowOf(page, COMMON.username)).toBeVisible();
    await expect(actionsOf(page, 'root')).toHaveCount(0);
    await expect(actionsOf(page, OTHER_ADMIN.username)).toHaveCount(0);
    await expect(actionsOf(page, ADMIN.username)).toHaveCount(0);
    const common = actionsOf(page, COMMON.username);
    await expect(common.and(page.getByTestId('row-action-edit'))).toHaveCount(1);
    await expect(common.and(page.getByTestId('row-action-delete'))).toHaveCount(1);
    await expect(common.and(page.getByTestId('row-action-promote'))).toHaveCount(0);
  });
}

test('root keeps every action on administrators and users', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/user');
  await expect(actionsOf(page, OTHER_ADMIN.username).and(page.getByTestId('row-action-demote'))).toHaveCount(1);
  await expect(actionsOf(page, OTHER_ADMIN.username).and(page.getByTestId('row-action-edit'))).toHaveCount(1);
  await expect(actionsOf(page, COMMON.username).and(page.getByTestId('row-action-promote'))).toHaveCount(1);
});
