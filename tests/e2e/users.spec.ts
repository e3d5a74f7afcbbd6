/**
 * User management, rendered from resources/users.ts: root signs in (default-password
 * warning), creates a user, edits quota through the dialog, promotes and demotes, disables
 * and enables, deletes; search, column choice and page size; an ordinary user cannot
 * reach the admin screens.
 */
import { expect, test, type Page } from '@playwright/test';
import { login, ROOT, settle, shot, toast } from './helpers';

test.describe.configure({ mode: 'serial' });

const row = (page: Page, username: string) =>
  page
    .locator('.ant-table-row')
    .filter({ has: page.getByRole('cell', { name: username, exact: false }) })
    .filter({ hasText: username });

async function signInRoot(page: Page) {
  await login(page, ROOT.username, ROOT.password);
  await page.getByRole('button', { name: '确定' }).click();
}

async function confirmPop(page: Page) {
  await page.locator('.ant-popconfirm').getByRole('button', { name: '确定' }).click();
}

test('root signs in and is warned about the default password', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.clear());
  await login(page, ROOT.username, ROOT.password);
  const warning = page.locator('.ant-modal-confirm');
  await expect(warning.locator('.ant-modal-confirm-title')).toHaveText('您正在使用默认密码！');
  await expect(warning).toContainText('请立刻修改默认密码！');
  await shot(page, 'login-default-password-warning');
  await page.getByRole('button', { name: '确定' }).click();
  // A password login lands on the API tokens page (docs/console.md#account-pages).
  await expect(page).toHaveURL(/\/token$/);
  await page.goto('/personal');
  await expect(page.getByTestId('default-password-alert')).toBeVisible();
  await shot(page, 'personal-root');
  const sideNav = page.getByTestId('side-nav');
  await expect(sideNav.getByText('管理员')).toBeVisible();
  await sideNav.getByText('用户管理').click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(row(page, 'root')).toBeVisible();
  await shot(page, 'users-list-zh');
});

test('root creates a user, with the message for empty fields', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/user');
  await page.getByTestId('create-button').click();
  await expect(page).toHaveURL(/\/user\/edit$/);
  const drawer = page.getByTestId('resource-drawer');
  await drawer.getByTestId('drawer-submit').click();
  await expect(drawer.getByText('用户名和密码不能为空！').first()).toBeVisible();
  await shot(page, 'users-create-validation');
  await drawer.getByLabel('用户名').fill('alice');
  await drawer.getByLabel('显示名称').fill('Alice');
  await drawer.getByLabel('密码').fill('alicepass1');
  await drawer.getByTestId('drawer-submit').click();
  await expect(toast(page, '用户账户创建成功！')).toBeVisible();
  await expect(page).toHaveURL(/\/user$/);
  await expect(row(page, 'alice')).toBeVisible();
  await expect(row(page, 'alice')).toContainText('普通用户');
  await expect(row(page, 'alice')).toContainText('已激活');
});

test('root edits quota through the add-a-signed-amount dialog', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/user');
  await row(page, 'alice').getByTestId('row-action-edit').click();
  await expect(page).toHaveURL(/\/user\/edit\/\d+$/);
  const drawer = page.getByTestId('resource-drawer');
  await expect(drawer.getByLabel('用户名')).toHaveValue('alice');
  const quota = drawer.getByLabel('剩余额度');
  const before = Number(await quota.inputValue());

  await drawer.getByTestId('quota-adjust').click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '添加额度' });
  await dialog.getByRole('spinbutton').fill('1000000');
  await expect(dialog).toContainText(`= ${(before + 1_000_000).toLocaleString('en-US')}`);
  await shot(page, 'users-quota-dialog');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(quota).toHaveValue(String(before + 1_000_000));

  await drawer.getByTestId('quota-adjust').click();
  await dialog.getByRole('spinbutton').fill('-500000');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(quota).toHaveValue(String(before + 500_000));
  await shot(page, 'users-edit-drawer');
  await drawer.getByTestId('drawer-submit').click();
  await expect(toast(page, '用户信息更新成功！')).toBeVisible();
  const dollars = `$${((before + 500_000) / 500_000).toFixed(2)}`;
  await expect(row(page, 'alice')).toContainText(dollars);
});

test('root promotes, demotes, disables and enables a user', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/user');
  const alice = row(page, 'alice');

  await alice.getByTestId('row-action-promote').click();
  await confirmPop(page);
  await expect(toast(page, '操作成功完成！')).toBeVisible();
  await expect(alice).toContainText('管理员');
  await expect(alice.getByTestId('row-action-promote')).toHaveCount(0);

  await alice.getByTestId('row-action-demote').click();
  await confirmPop(page);
  await expect(alice).toContainText('普通用户');

  await alice.getByTestId('row-action-disable').click();
  await expect(alice).toContainText('已封禁');
  await expect(alice.getByTestId('row-action-enable')).toBeEnabled();
  await shot(page, 'users-disabled-row');
  await alice.getByTestId('row-action-enable').click();
  await expect(alice).toContainText('已激活');
  await expect(alice.getByTestId('row-action-disable')).toBeVisible();
});

test('search, column choice and page size', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/user');
  for (const name of ['bob', 'carol']) {
    await page.getByTestId('create-button').click();
    const drawer = page.getByTestId('resource-drawer');
    await drawer.getByLabel('用户名').fill(name);
    await drawer.getByLabel('密码').fill(`${name}pass12`);
    await drawer.getByTestId('drawer-submit').click();
    await expect(row(page, name)).toBeVisible();
  }
  const search = page.getByTestId('search-form');
  await search.getByPlaceholder('搜索用户的 ID、用户名、显示名称以及邮箱地址').fill('bob');
  await search.getByRole('button', { name: '查询' }).click();
  await expect(row(page, 'bob')).toBeVisible();
  await expect(row(page, 'alice')).toHaveCount(0);
  await expect(row(page, 'root')).toHaveCount(0);

  await page.getByRole('button', { name: '列设置' }).click();
  await page.getByTestId('column-chooser').getByText('邮箱').click();
  await expect(page.getByRole('columnheader', { name: '邮箱' })).toBeVisible();
  await page.getByRole('button', { name: '列设置' }).click();
  await expect(page.getByTestId('column-chooser')).toBeHidden();
  await page.locator('.ant-pagination-options .ant-select').click();
  await page.getByTitle('20 条/页').click();
  await page.reload();
  await expect(page.getByRole('columnheader', { name: '邮箱' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('users-table-columns'))).toContain('"email":true');
  expect(await page.evaluate(() => localStorage.getItem('page-size'))).toBe('20');
  await expect(page.locator('.ant-pagination-options')).toContainText('20 条/页');
});

test('root deletes a user: the row is labelled and offers no action', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/user');
  const alice = row(page, 'alice');
  await alice.getByTestId('row-action-delete').click();
  await expect(page.getByText('相当于删除用户，此修改将不可逆')).toBeVisible();
  await confirmPop(page);
  await expect(toast(page, '操作成功完成！')).toBeVisible();
  await expect(alice).toContainText('已注销');
  await expect(alice.locator('button')).toHaveCount(0);
  await shot(page, 'users-deleted-row');
});

test('an ordinary user sees no admin section and cannot open admin screens', async ({ page }) => {
  await login(page, 'bob', 'bobpass12');
  await expect(page).toHaveURL(/\/token$/);
  const sideNav = page.getByTestId('side-nav');
  await expect(sideNav.getByText('个人设置')).toBeVisible();
  await expect(sideNav.getByText('用户管理')).toHaveCount(0);
  await expect(sideNav.getByText('系统设置')).toHaveCount(0);
  await page.goto('/user');
  await expect(page.getByText('无权访问')).toBeVisible();
  await page.goto('/user/edit/1');
  await expect(page.getByText('无权访问')).toBeVisible();
  await page.goto('/setting');
  await expect(page.getByText('无权访问')).toBeVisible();
  await shot(page, 'forbidden-ordinary');
});

test('the users screen in English and dark mode', async ({ page }) => {
  await signInRoot(page);
  await page.evaluate(() => {
    localStorage.setItem('language', 'en');
    localStorage.setItem('theme-mode', 'dark');
  });
  await page.goto('/user');
  await expect(page.getByRole('columnheader', { name: 'Statistics' })).toBeVisible();
  await expect(row(page, 'alice')).toContainText('Deregistered');
  await shot(page, 'users-list-en-dark');
  await row(page, 'bob').getByTestId('row-action-edit').click();
  await expect(page.getByTestId('resource-drawer').getByLabel('Username')).toHaveValue('bob');
  await settle(page);
  await shot(page, 'users-edit-en-dark');
  await page.goto('/personal');
  await shot(page, 'personal-en-dark');
  await page.goto('/setting');
  await shot(page, 'settings-en-dark');
  await page.evaluate(() => localStorage.setItem('theme-mode', 'light'));
  await page.goto('/user');
  await shot(page, 'users-list-en-light');
  await page.goto('/user/edit');
  await shot(page, 'users-create-en-light');
});
