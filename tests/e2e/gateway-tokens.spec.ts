/**
 * API tokens, rendered from resources/tokens.ts: an ordinary user lands on the tokens page,
 * creates two tokens at once (expiry text checked, quota preset), copies one key and the
 * selection, disables and enables a token, limits its models, and opens a saved chat link
 * with the token put in.
 */
import { expect, test, type Page } from '@playwright/test';
import { createChannel, ensureUser, rowWith, shotVariants, signIn, signInRoot, USER } from './gateway-helpers';
import { settle, shot, toast } from './helpers';

test.describe.configure({ mode: 'serial' });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const drawer = (page: Page) => page.getByTestId('resource-drawer');
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('root sets up the ordinary user', async ({ page }) => {
  await signInRoot(page);
  expect(await ensureUser(page)).toBeGreaterThan(1);
  // A model the user's group can use, for the model limit.
  await createChannel(page, 'e2e-token-models', 'http://127.0.0.1:9', ['gpt-4o']);
});

test('a user creates two tokens at once, with the expiry checked', async ({ page }) => {
  await signIn(page, USER);
  await expect(page).toHaveURL(/\/token$/);
  await expect(page.getByTestId('resource-banner')).toContainText('令牌仅供您本人使用');
  await page.getByTestId('create-button').click();
  await drawer(page).getByLabel('名称').fill('e2e-key');
  await drawer(page).getByRole('button', { name: '$10', exact: true }).click();
  await expect(drawer(page).getByLabel('额度', { exact: true })).toHaveValue('5000000');
  await drawer(page).getByTestId('expiry-expired_time').fill('2031-02-30 25:00');
  await drawer(page).getByTestId('drawer-submit').click();
  await expect(drawer(page).getByText('过期时间格式错误！')).toBeVisible();
  await drawer(page).getByRole('button', { name: '一个月' }).click();
  await expect(drawer(page).getByTestId('expiry-expired_time')).toHaveValue(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await drawer(page).getByLabel('新建数量').fill('2');
  await settle(page);
  await shot(page, 'tokens-create-drawer');
  await drawer(page).getByTestId('drawer-submit').click();
  await expect(toast(page, '令牌创建成功，请在列表页面点击复制获取令牌！')).toBeVisible();
  await expect(rowWith(page, 'e2e-key')).toHaveCount(2);
  await expect(rowWith(page, /e2e-key-[A-Za-z0-9]{6}/)).toHaveCount(1);
  await expect(rowWith(page, 'e2e-key').first()).toContainText('$10.00');
});

test('keys are copied with the sk- prefix, one or the selection', async ({ page }) => {
  await signIn(page, USER);
  const first = rowWith(page, 'e2e-key').first();
  await expect(first).toContainText('sk-');
  await first.getByTestId('row-action-copy').click();
  await expect(toast(page, '已复制到剪贴板')).toBeVisible();
  expect(await clipboard(page)).toMatch(/^sk-[A-Za-z0-9]{48}$/);

  await page.getByTestId('batch-copy').click();
  await expect(toast(page, '请至少选择一个令牌！')).toBeVisible();
  for (const row of await rowWith(page, 'e2e-key').all()) await row.getByRole('checkbox').check();
  await page.getByTestId('batch-copy').click();
  const lines = (await clipboard(page)).split('\n');
  expect(lines).toHaveLength(2);
  for (const line of lines) expect(line).toMatch(/^e2e-key(-[A-Za-z0-9]{6})? {4}sk-[A-Za-z0-9]{48}$/);
});

test('a token is disabled, enabled and limited to models', async ({ page }) => {
  await signIn(page, USER);
  const row = rowWith(page, /^e2e-key(?!-)/).first();
  await row.getByTestId('row-action-disable').click();
  await expect(row.getByTestId('status-tag')).toHaveText('已禁用');
  await row.getByTestId('row-action-enable').click();
  await expect(row.getByTestId('status-tag')).toHaveText('已启用');

  await row.getByTestId('row-action-edit').click();
  await expect(drawer(page).getByLabel('名称')).toHaveValue(/^e2e-key/);
  await drawer(page).getByLabel('启用模型限制').click();
  await drawer(page).locator('.ant-form-item').filter({ hasText: '可用模型' }).locator('.ant-select-selector').click();
  await page.keyboard.type('gpt-4o');
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await drawer(page).getByTestId('drawer-submit').click();
  await expect(toast(page, '令牌更新成功！')).toBeVisible();
  await expect(row.getByTestId('status-tag')).toHaveText('已启用：限制模型');
});

test('a saved chat link opens with the token put in', async ({ page }) => {
  await signIn(page, USER);
  await page.getByTestId('side-nav').getByText('聊天').click();
  await page.getByTestId('side-nav').getByText('ChatGPT Next Web 官方示例').click();
  await expect(page).toHaveURL(/\/chat\/0$/);
  await expect(page.getByTestId('chat-frame')).toHaveAttribute('src', /settings=\{"key":"sk-[A-Za-z0-9]{48}","url":"http%3A%2F%2F/);
  await page.goto('/chat/99');
  await expect(page.getByText('聊天链接配置错误，请联系管理员')).toBeVisible();
});

test('the tokens screen in both languages and themes', async ({ page }) => {
  await signIn(page, USER);
  await shotVariants(page, 'tokens-list', '/token', (p) => rowWith(p, 'e2e-key'));
  await shotVariants(page, 'tokens-edit', '/token/add', (p) => p.getByTestId('resource-drawer'));
});
