/**
 * Sign-in pages against the real server: the registration messages (docs/messages.md), a successful
 * registration and login, login failures, the reset request lock and the reset link page.
 */
import { expect, test } from '@playwright/test';
import { freshStorage, login, shot, toast } from './helpers';

test.beforeEach(async ({ page }) => {
  await freshStorage(page);
});

test('registration shows the messages for a short password and a mismatch', async ({ page }) => {
  await page.goto('/register');
  await page.getByTestId('register-username').fill('dave');
  await page.getByTestId('register-password').fill('short');
  await page.getByTestId('register-password2').fill('short');
  await page.getByTestId('register-submit').click();
  await expect(toast(page, '密码长度不得小于 8 位！')).toBeVisible();
  await shot(page, 'register-short-password');

  await page.getByTestId('register-password').fill('davepass1');
  await page.getByTestId('register-password2').fill('davepass2');
  await page.getByTestId('register-submit').click();
  await expect(toast(page, '两次输入的密码不一致')).toBeVisible();
  await shot(page, 'register-mismatch');
});

test('a visitor registers with an invitation link, then signs in', async ({ page }) => {
  await page.goto('/register?aff=ABCD');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('aff'))).toBe('ABCD');
  const sent = page.waitForRequest((r) => r.url().includes('/api/user/register'));
  await page.getByTestId('register-username').fill('erin');
  await page.getByTestId('register-password').fill('erinpass1');
  await page.getByTestId('register-password2').fill('erinpass1');
  await page.getByTestId('register-submit').click();
  expect((await sent).postDataJSON()).toMatchObject({ username: 'erin', password: 'erinpass1', password2: 'erinpass1', aff_code: 'ABCD' });
  await expect(toast(page, '注册成功！')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await login(page, 'erin', 'erinpass1');
  await expect(toast(page, '登录成功！')).toBeVisible();
  await expect(page).toHaveURL(/\/token$/);
  await page.goto('/personal');
  await expect(page.getByText('@erin')).toBeVisible();
  await shot(page, 'personal-ordinary');

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  await page.goto('/personal');
  await expect(page).toHaveURL(/\/login$/);
});

test('login failures show the console text and the server message', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-submit').click();
  await expect(toast(page, '请输入用户名和密码！')).toBeVisible();
  await page.getByTestId('login-username').fill('root');
  await page.getByTestId('login-password').fill('wrong-password');
  await page.getByTestId('login-submit').click();
  await expect(toast(page, '用户名或密码错误，或用户已被封禁')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await shot(page, 'login-failed');
});

test('the reset request locks its button for 30 seconds', async ({ page }) => {
  await page.goto('/reset');
  await page.getByTestId('reset-email').fill('nobody@example.com');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-submit')).toBeDisabled();
  await expect(page.getByTestId('reset-submit')).toContainText(/重试 \((30|29|28|27)\)/);
  await expect(page.locator('.ant-message-notice')).toBeVisible();
  await shot(page, 'reset-locked');
});

test('the reset link page needs email and token and shows the server refusal', async ({ page }) => {
  await page.goto('/user/reset');
  await expect(page.getByText('重置链接无效')).toBeVisible();
  await page.goto('/user/reset?email=nobody%40example.com&token=0123456789abcdef');
  await page.getByRole('button', { name: '确认重置密码' }).click();
  await expect(toast(page, '重置链接非法或已过期')).toBeVisible();
  await shot(page, 'reset-confirm-refused');
});
