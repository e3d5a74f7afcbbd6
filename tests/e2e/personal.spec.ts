/**
 * The personal page: root's badge and default-password warning, model tags (10 shown, the
 * expanded state remembered), then an ordinary user's invitation link and transfer limit,
 * bindings (the server's refusals shown, never a fake success), notification settings,
 * password change, system access token and account deletion by typing the username.
 * Screens in both languages and both themes.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { login, ROOT, settle, shot, toast } from './helpers';

test.describe.configure({ mode: 'serial' });

const SHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
const USER = { username: 'pat', password: 'patpass12' };

async function viewShot(page: Page, target: Locator, name: string) {
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await settle(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function signInRoot(page: Page) {
  await login(page, ROOT.username, ROOT.password);
  await page.getByRole('button', { name: '确定' }).click();
}

async function apiCall(page: Page, method: 'get' | 'post' | 'delete', path: string, data?: unknown) {
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  const res = await page.request.fetch(path, { method, data, headers: { 'New-Api-User': String(id) } });
  const body = (await res.json()) as { success: boolean; message: string; data: unknown };
  expect(body.success, `${method} ${path}: ${body.message}`).toBe(true);
  return body.data;
}

async function signOut(page: Page) {
  await apiCall(page, 'get', '/api/user/logout');
  await page.evaluate(() => localStorage.removeItem('user'));
}

test('root: admin badge, default-password warning, model tags with the expanded state remembered', async ({ page }) => {
  await signInRoot(page);
  const models = Array.from({ length: 12 }, (_, i) => `e2e-tag-model-${String(i + 1).padStart(2, '0')}`);
  const created = (await apiCall(page, 'post', '/api/channel/', { name: 'e2e-tags', type: 1, key: 'sk-e2e', models: models.join(','), groups: ['default'] })) as { ids: number[] };
  try {
    await page.evaluate(() => localStorage.removeItem('personal-models-expanded'));
    await page.goto('/personal');
    await expect(page.getByTestId('default-password-alert')).toBeVisible();
    await expect(page.getByTestId('role-badge')).toHaveText('管理员');
    // Other specs share this server and may have left channels: count what the server offers.
    const offered = ((await apiCall(page, 'get', '/api/user/models')) as string[]).length;
    expect(offered).toBeGreaterThanOrEqual(12);
    const tags = page.getByTestId('model-tags').locator('.sy-model-tag');
    await expect(tags).toHaveCount(10);
    await page.getByTestId('models-toggle').click();
    await expect(tags).toHaveCount(offered);
    await page.reload();
    await expect(tags).toHaveCount(offered);
    await shot(page, 'personal-zh-light');
    await page.getByTestId('models-toggle').click();
    await expect(tags).toHaveCount(10);

    // Root cannot delete itself: the server's refusal is shown, nothing else happens.
    await page.getByTestId('delete-open').click();
    await page.getByTestId('delete-confirm-input').fill('root');
    await page.locator('.ant-modal').getByRole('button', { name: '删除个人账户' }).click();
    await expect(toast(page, '不能删除超级管理员账户')).toBeVisible();
    await expect(page).toHaveURL(/\/personal$/);
  } finally {
    for (const id of created.ids) await apiCall(page, 'delete', `/api/channel/${id}/`);
  }
  await apiCall(page, 'post', '/api/user/', { username: USER.username, display_name: 'Pat', password: USER.password });
});

test('an ordinary user: invitation, bindings and notification settings', async ({ page }) => {
  await login(page, USER.username, USER.password);
  await page.goto('/personal');
  await expect(page.getByTestId('role-badge')).toHaveText('普通用户');
  await expect(page.getByTestId('default-password-alert')).toHaveCount(0);
  await expect(page.getByTestId('invite-link')).toHaveValue(/\/register\?aff=[0-9A-Za-z]{4}$/);

  await page.getByTestId('aff-transfer').click();
  const transfer = page.locator('.ant-modal').filter({ hasText: '划转邀请收益到余额' });
  await transfer.getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '划转金额最低为 $1.00')).toBeVisible();
  await transfer.locator('input').fill('500000');
  await transfer.getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '划转失败 邀请额度不足！')).toBeVisible();
  await transfer.getByRole('button', { name: '取消' }).click();

  const bindings = page.getByTestId('bindings-card');
  await expect(page.getByTestId('binding-github')).toContainText('未启用');
  await page.getByTestId('bind-email-open').click();
  const email = page.locator('.ant-modal').filter({ hasText: '绑定邮箱地址' });
  await email.getByRole('button', { name: '绑定' }).click();
  await expect(toast(page, '请输入邮箱！')).toBeVisible();
  await email.getByTestId('bind-email').fill('pat@example.com');
  await email.getByRole('button', { name: '绑定' }).click();
  await expect(toast(page, '请输入邮箱验证码！')).toBeVisible();
  await email.getByTestId('bind-email-code').fill('123456');
  await email.getByRole('button', { name: '绑定' }).click();
  // No code was ever sent: the server refuses and that refusal is what the user sees.
  await expect(toast(page, '验证码错误或已过期')).toBeVisible();
  await expect(toast(page, '绑定成功！')).toHaveCount(0);
  await viewShot(page, email, 'personal-email-bind');
  await email.getByRole('button', { name: '取消' }).click();
  await expect(bindings.getByTestId('binding-email')).toContainText('未绑定');

  const notify = page.getByTestId('notification-card');
  await expect(notify.getByTestId('notify-threshold').locator('input')).toHaveValue('500000');
  await notify.getByText('Webhook 通知').click();
  await notify.getByLabel('Webhook 地址').fill('http://hooks.example.com/x');
  await notify.getByTestId('notify-save').click();
  await expect(notify.getByText('请输入以 https:// 开头的有效地址')).toBeVisible();
  await notify.getByLabel('Webhook 地址').fill('https://hooks.example.com/x');
  await notify.getByLabel('Webhook 密钥').fill('s3cret');
  await notify.getByTestId('notify-threshold').locator('input').fill('100000');
  await notify.getByTestId('notify-save').click();
  await expect(toast(page, '设置已更新')).toBeVisible();
  await page.reload();
  await expect(notify.getByLabel('Webhook 地址')).toHaveValue('https://hooks.example.com/x');
  await expect(notify.getByTestId('notify-threshold').locator('input')).toHaveValue('100000');
  await viewShot(page, notify, 'personal-notifications');
});

test('an ordinary user: password, system access token, account deletion by typing the username', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await login(page, USER.username, USER.password);
  await page.goto('/personal');

  await page.getByTestId('password-open').click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '修改密码' });
  await dialog.getByTestId('password-new').fill('patnewpass1');
  await dialog.getByTestId('password-repeat').fill('patnewpass2');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '两次输入的密码不一致！')).toBeVisible();
  await dialog.getByTestId('password-repeat').fill('patnewpass1');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '密码修改成功！')).toBeVisible();

  await page.getByTestId('token-generate').click();
  await expect(toast(page, '令牌已重置并已复制到剪贴板')).toBeVisible();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token.length).toBeGreaterThanOrEqual(16);
  await expect(page.getByTestId('access-token')).toHaveValue(token);
  await viewShot(page, page.getByTestId('security-card'), 'personal-security');

  await page.getByTestId('delete-open').click();
  const confirm = page.locator('.ant-modal').filter({ hasText: '危险操作' });
  await confirm.getByTestId('delete-confirm-input').fill('someone-else');
  await confirm.getByRole('button', { name: '删除个人账户' }).click();
  await expect(toast(page, '请输入你的账户名以确认删除！')).toBeVisible();
  await confirm.getByTestId('delete-confirm-input').fill(USER.username);
  await confirm.getByRole('button', { name: '删除个人账户' }).click();
  await expect(toast(page, '账户已删除！')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();

  await page.getByTestId('login-username').fill(USER.username);
  await page.getByTestId('login-password').fill('patnewpass1');
  await page.getByTestId('login-submit').click();
  await expect(toast(page, '用户名或密码错误，或用户已被封禁')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('the personal page in both languages and both themes', async ({ page }) => {
  await signInRoot(page);
  for (const [lang, theme] of [
    ['en', 'dark'],
    ['zh', 'dark'],
    ['en', 'light'],
  ] as const) {
    await page.evaluate(
      ([l, th]) => {
        localStorage.setItem('language', l);
        localStorage.setItem('theme-mode', th);
      },
      [lang, theme],
    );
    await page.goto('/personal');
    await expect(page.getByTestId('profile-card')).toBeVisible();
    await shot(page, `personal-${lang}-${theme}`);
  }
  await expect(page.getByTestId('role-badge')).toHaveText('Admin');
  await expect(page.getByTestId('bindings-card')).toContainText('Account bindings');
  await signOut(page);
  await page.evaluate(() => {
    localStorage.setItem('language', 'zh');
    localStorage.setItem('theme-mode', 'light');
  });
});
