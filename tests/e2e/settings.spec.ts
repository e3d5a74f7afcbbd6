/**
 * The settings tabs rendered from schemas/options: a setting in each tab survives a reload,
 * the save messages (nothing changed, failed validation, partial failure), confirmation
 * before password login is switched off, the list editor, the visual ratio table (10 rows a
 * page, duplicate check, fixed price, numbers only, batch set, reset), the models without a
 * ratio, log clean-up, the OIDC fetch button, the version check, and an admin without the
 * system tab. Screens in both languages and both themes.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { login, ROOT, settle, shot, toast } from './helpers';

const SHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** A screenshot of the window with `target` scrolled into view (what the admin sees there). */
async function viewShot(page: Page, target: Locator, name: string) {
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await settle(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

test.describe.configure({ mode: 'serial' });

async function signInRoot(page: Page) {
  await login(page, ROOT.username, ROOT.password);
  await page.getByRole('button', { name: '确定' }).click();
}

/** An /api call as the signed-in user (the session cookie is the page's). */
async function apiCall(page: Page, method: 'get' | 'post' | 'put' | 'delete', path: string, data?: unknown) {
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  const res = await page.request.fetch(path, { method, data, headers: { 'New-Api-User': String(id) } });
  const body = (await res.json()) as { success: boolean; message: string; data: unknown };
  expect(body.success, `${method} ${path}: ${body.message}`).toBe(true);
  return body.data;
}

const section = (page: Page, id: string) => page.getByTestId(`section-${id}`);

async function openTab(page: Page, tab: string) {
  await page.goto(`/setting?tab=${tab}`);
  await expect(page.locator('.ant-tabs-tabpane-active .sy-settings-section').first()).toBeVisible();
}

async function save(page: Page, id: string, expected: string | RegExp = '保存成功') {
  await page.getByTestId(`save-${id}`).click();
  await expect(toast(page, expected).first()).toBeVisible();
}

/** The switch an option renders (its label is the title beside it). */
const switchOf = (scope: Locator, title: string) => scope.getByRole('switch', { name: title });

test('a setting in each tab is changed, saved and survives a reload', async ({ page }) => {
  await signInRoot(page);
  await openTab(page, 'operation');
  await expect(page.getByRole('tab', { name: '运营设置' })).toHaveAttribute('aria-selected', 'true');
  await section(page, 'operation-general').getByLabel('失败重试次数').fill('3');
  await save(page, 'operation-general');

  await page.getByRole('tab', { name: '速率限制' }).click();
  await expect(page).toHaveURL(/tab=ratelimit/);
  await section(page, 'ratelimit-model').getByLabel('限制周期').fill('5');
  await save(page, 'ratelimit-model');

  await openTab(page, 'models');
  await switchOf(section(page, 'models-global'), '启用请求透传').click();
  await save(page, 'models-global');

  await openTab(page, 'system');
  await section(page, 'system-general').getByLabel('服务器地址').fill('https://gw.example.com/');
  await save(page, 'system-general');

  await openTab(page, 'other');
  await section(page, 'other-content').getByLabel('系统名称').fill('Yard Test');
  await save(page, 'other-content');

  await page.reload();
  await expect(page.locator('.sy-brand-name')).toHaveText('Yard Test');
  await expect(section(page, 'other-content').getByLabel('系统名称')).toHaveValue('Yard Test');
  await openTab(page, 'operation');
  await expect(section(page, 'operation-general').getByLabel('失败重试次数')).toHaveValue('3');
  await openTab(page, 'ratelimit');
  await expect(section(page, 'ratelimit-model').getByLabel('限制周期')).toHaveValue('5');
  await openTab(page, 'models');
  await expect(switchOf(section(page, 'models-global'), '启用请求透传')).toBeChecked();
  await openTab(page, 'system');
  // The address was stored without its trailing slash.
  await expect(section(page, 'system-general').getByLabel('服务器地址')).toHaveValue('https://gw.example.com');

  // Put back what other screens show.
  await openTab(page, 'other');
  await section(page, 'other-content').getByLabel('系统名称').fill('Switchyard');
  await save(page, 'other-content');
  await openTab(page, 'models');
  await switchOf(section(page, 'models-global'), '启用请求透传').click();
  await save(page, 'models-global');
});

test('saving says when nothing changed, when input is invalid and when only part was saved', async ({ page }) => {
  await signInRoot(page);
  await openTab(page, 'operation');
  await save(page, 'operation-general', '你似乎并没有修改什么');

  const chats = section(page, 'operation-general').getByLabel('聊天配置');
  await chats.fill('[{"broken"');
  await chats.blur();
  await expect(toast(page, '聊天配置不是合法的 JSON 字符串')).toBeVisible();
  await viewShot(page, chats, 'settings-json-invalid');
  await save(page, 'operation-general', '请检查输入');
  await expect(section(page, 'operation-general').locator('.ant-form-item-explain-error').filter({ hasText: '聊天配置不是合法的 JSON 字符串' })).toBeVisible();

  await openTab(page, 'models');
  const claude = section(page, 'models-claude');
  await switchOf(claude, '启用Claude思考适配（-thinking后缀）').click();
  // Valid JSON the server refuses (max tokens must be at least 1): one key saved, one not.
  await claude.getByLabel('缺省 MaxTokens').fill('{"default": 0}');
  await save(page, 'models-claude', '部分保存失败，请重试');
  await expect(toast(page, /claude\.default_max_tokens/)).toBeVisible();
  await page.reload();
  await expect(switchOf(section(page, 'models-claude'), '启用Claude思考适配（-thinking后缀）')).not.toBeChecked();
  await switchOf(section(page, 'models-claude'), '启用Claude思考适配（-thinking后缀）').click();
  await save(page, 'models-claude');
});

test('switching password login off asks first; the email whitelist adds only new entries', async ({ page }) => {
  await signInRoot(page);
  await openTab(page, 'system');
  const login = switchOf(section(page, 'system-login'), '允许通过密码进行登录');
  await login.click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText('确认关闭');
  await viewShot(page, confirm, 'settings-confirm-password-login');
  await confirm.getByRole('button', { name: '取消' }).click();
  await expect(login).toBeChecked();

  const domains = section(page, 'system-email-domain');
  const entry = domains.getByLabel('允许的邮箱域名');
  const tags = domains.locator('.sy-list-tag');
  const before = await tags.count();
  await entry.fill('gmail.com');
  await entry.press('Enter');
  // Already listed: nothing is added and the typed text stays for correction.
  await expect(entry).toHaveValue('gmail.com');
  await expect(tags).toHaveCount(before);
  await entry.fill('   ');
  await expect(domains.getByRole('button', { name: '添加' })).toBeDisabled();
  await entry.fill('example.org');
  await domains.getByRole('button', { name: '添加' }).click();
  await expect(tags).toHaveCount(before + 1);
  await save(page, 'system-email-domain');
  await page.reload();
  await expect(section(page, 'system-email-domain').locator('.sy-list-tag').filter({ hasText: 'example.org' })).toBeVisible();
});

test('a stored secret shows as set, blank, and stays set when its section is saved', async ({ page }) => {
  await signInRoot(page);
  // GET /api/option/ leaves secrets out; the console learns from /api/option/secrets.
  await apiCall(page, 'put', '/api/option/', { key: 'SMTPToken', value: 'e2e-smtp-credential' });
  await openTab(page, 'system');
  const smtp = section(page, 'system-smtp');
  await expect(smtp.getByLabel('SMTP 访问凭证')).toHaveAttribute('placeholder', '已设置，留空则保持不变');
  await smtp.getByLabel('SMTP 服务器地址').fill('smtp.e2e.example.com');
  await save(page, 'system-smtp');
  await page.reload();
  await expect(section(page, 'system-smtp').getByLabel('SMTP 访问凭证')).toHaveAttribute('placeholder', '已设置，留空则保持不变');
  await expect(section(page, 'system-smtp').getByLabel('SMTP 访问凭证')).toHaveValue('');
  await expect(section(page, 'system-smtp').getByLabel('SMTP 服务器地址')).toHaveValue('smtp.e2e.example.com');
  // Put back what the other tests expect.
  await apiCall(page, 'put', '/api/option/', { key: 'SMTPServer', value: '' });
  await apiCall(page, 'put', '/api/option/', { key: 'SMTPToken', value: '' });
});

test('the visual ratio table: pages of 10, duplicate check, fixed price, numbers only, batch set, reset', async ({ page }) => {
  await signInRoot(page);
  await openTab(page, 'operation');
  const ratios = section(page, 'operation-ratios');
  await ratios.getByRole('tab', { name: '可视化倍率设置' }).click();
  const table = page.getByTestId('ratio-table');
  await expect(table.locator('.ant-table-row')).toHaveCount(10);
  await viewShot(page, table, 'settings-ratio-table');

  await table.getByTestId('add-model').click();
  const dialog = page.locator('.ant-modal').filter({ hasText: '添加模型' });
  await dialog.getByTestId('add-model-name').fill('gpt-4');
  await dialog.getByTestId('add-model-ratio').fill('1');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '模型名称已存在')).toBeVisible();
  await dialog.getByTestId('add-model-name').fill('e2e-model');
  await dialog.getByTestId('add-model-ratio').fill('x');
  await expect(toast(page, '请输入数字')).toBeVisible();
  await dialog.getByTestId('add-model-completionRatio').fill('3');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toBeHidden();

  const search = table.getByPlaceholder('搜索模型名称');
  await search.fill('dall-e-3');
  const fixed = table.locator('.ant-table-row').filter({ hasText: 'dall-e-3' });
  await expect(fixed.getByLabel('dall-e-3 模型倍率', { exact: true })).toBeDisabled();
  await expect(fixed.getByLabel('dall-e-3 模型固定价格')).toBeEnabled();

  await search.fill('e2e-model');
  const row = table.locator('.ant-table-row').filter({ hasText: 'e2e-model' });
  await expect(row.getByLabel('e2e-model 模型补全倍率')).toHaveValue('3');
  await row.getByLabel('e2e-model 模型补全倍率').fill('3a');
  await expect(toast(page, '请输入数字').first()).toBeVisible();
  await expect(row.getByLabel('e2e-model 模型补全倍率')).toHaveValue('3');

  await table.getByRole('button', { name: /批量设置/ }).click();
  await expect(toast(page, '请先选择需要批量设置的模型')).toBeVisible();
  await row.getByRole('checkbox').check();
  await table.getByRole('button', { name: /批量设置/ }).click();
  const batch = page.locator('.ant-modal').filter({ hasText: '设置方式' });
  await batch.getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '请输入填充值')).toBeVisible();
  await batch.getByTestId('batch-value').fill('abc');
  await batch.getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '请输入有效的数字')).toBeVisible();
  await batch.getByText('同时设置模型倍率和补全倍率').click();
  await batch.getByTestId('batch-ratio').fill('4');
  await batch.getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '请输入模型倍率和补全倍率')).toBeVisible();
  await batch.getByTestId('batch-completion').fill('1.5');
  await viewShot(page, batch, 'settings-ratio-batch');
  await batch.getByRole('button', { name: '确定' }).click();
  await expect(batch).toBeHidden();
  await expect(row.getByLabel('e2e-model 模型倍率', { exact: true })).toHaveValue('4');
  await expect(row.getByLabel('e2e-model 模型补全倍率')).toHaveValue('1.5');
  await save(page, 'operation-ratios');

  await page.reload();
  const json = section(page, 'operation-ratios');
  await expect(json.getByLabel('模型倍率', { exact: true })).toHaveValue(/"e2e-model": 4/);
  await expect(json.getByLabel('模型补全倍率')).toHaveValue(/"e2e-model": 1.5/);

  await json.getByRole('tab', { name: '可视化倍率设置' }).click();
  await page.getByRole('button', { name: '重置为默认倍率' }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: '确定' }).click();
  await expect(toast(page, '模型倍率已重置')).toBeVisible();
  await expect(section(page, 'operation-ratios').getByLabel('模型倍率', { exact: true })).not.toHaveValue(/e2e-model/);
});

test('models without a ratio come from enabled channels and can be priced there', async ({ page }) => {
  await signInRoot(page);
  const created = (await apiCall(page, 'post', '/api/channel/', { name: 'e2e-unpriced', type: 1, key: 'sk-e2e', models: 'e2e-unpriced-model,gpt-4', groups: ['default'] })) as { ids: number[] };
  try {
    await openTab(page, 'operation');
    await section(page, 'operation-ratios').getByRole('tab', { name: '未设置倍率模型' }).click();
    const table = page.getByTestId('unpriced-table');
    // Other specs share this server and may have left unpriced models: look at ours only.
    const ours = table.locator('.ant-table-row', { hasText: 'e2e-unpriced-model' });
    await expect(ours).toHaveCount(1);
    await expect(table.getByRole('cell', { name: 'gpt-4', exact: true })).toHaveCount(0);
    await viewShot(page, table, 'settings-unpriced-models');
    await table.getByLabel('e2e-unpriced-model 模型倍率', { exact: true }).fill('2');
    await save(page, 'operation-ratios');
    await page.reload();
    await section(page, 'operation-ratios').getByRole('tab', { name: '未设置倍率模型' }).click();
    await expect(page.getByText('e2e-unpriced-model', { exact: true })).toHaveCount(0);
  } finally {
    for (const id of created.ids) await apiCall(page, 'delete', `/api/channel/${id}/`);
  }
});

test('log clean-up, the OIDC fetch button and the version check', async ({ page }) => {
  await signInRoot(page);
  await openTab(page, 'operation');
  const cleanup = page.getByTestId('log-cleanup');
  const monthAgo = await page.evaluate(() => {
    const d = new Date();
    d.setMonth(d.getMonth() - 1);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  await expect(cleanup.locator('input')).toHaveValue(new RegExp(`^${monthAgo}`));
  await cleanup.getByRole('button', { name: '清除历史日志' }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  await expect(toast(page, /已清理 \d+ 条日志！/)).toBeVisible();

  await page.route('https://id.example.test/.well-known/openid-configuration', (route) =>
    route.fulfill({
      json: {
        issuer: 'https://id.example.test',
        authorization_endpoint: 'https://id.example.test/auth',
        token_endpoint: 'https://id.example.test/token',
        userinfo_endpoint: 'https://id.example.test/me',
      },
      headers: { 'Access-Control-Allow-Origin': '*' },
    }),
  );
  await openTab(page, 'system');
  const oidc = section(page, 'system-oidc');
  await oidc.getByLabel('Well-Known URL').fill('https://id.example.test/.well-known/openid-configuration');
  await oidc.getByRole('button', { name: '获取配置' }).click();
  await expect(oidc.getByLabel('Authorization Endpoint')).toHaveValue('https://id.example.test/auth');
  await expect(oidc.getByLabel('Token Endpoint')).toHaveValue('https://id.example.test/token');
  await expect(oidc.getByLabel('User Info Endpoint')).toHaveValue('https://id.example.test/me');
  await viewShot(page, oidc, 'settings-oidc-fetched');
  await oidc.getByLabel('Well-Known URL').fill('https://missing.example.test/.well-known/openid-configuration');
  await page.route('https://missing.example.test/**', (route) => route.fulfill({ status: 404, body: 'no' }));
  await oidc.getByRole('button', { name: '获取配置' }).click();
  await expect(toast(page, '获取 OIDC 配置失败，请检查网络状况和 Well-Known URL 是否正确')).toBeVisible();

  // The release host is out of reach in this closed network: the check says it failed.
  await openTab(page, 'other');
  await page.getByTestId('version-check').getByRole('button', { name: '检查更新' }).click();
  await expect(toast(page, '检查更新失败，请稍后重试')).toBeVisible({ timeout: 30_000 });
});

test('an admin sees every tab but system, and root-only keys disabled', async ({ page }) => {
  await signInRoot(page);
  await apiCall(page, 'post', '/api/user/', { username: 'setadmin', display_name: 'Set Admin', password: 'setadmin1' });
  const found = (await apiCall(page, 'get', '/api/user/search?keyword=setadmin')) as { items: Array<{ id: number; username: string }> };
  await apiCall(page, 'post', '/api/user/manage', { id: found.items.find((u) => u.username === 'setadmin')!.id, action: 'promote' });
  await apiCall(page, 'get', '/api/user/logout');
  await page.evaluate(() => localStorage.removeItem('user'));
  await login(page, 'setadmin', 'setadmin1');
  await page.goto('/setting?tab=system');
  // Top-level tabs only: the ratio section inside the operation tab has sub-tabs of its own.
  const tabs = page.getByTestId('settings-tabs').locator(':scope > .ant-tabs-nav [role="tab"]');
  await expect(tabs).toHaveText(['运营设置', '速率限制', '模型相关设置', '其他设置']);
  await expect(page.getByRole('tab', { name: '运营设置' })).toHaveAttribute('aria-selected', 'true');
  await expect(section(page, 'operation-general').getByLabel('充值链接')).toBeDisabled();
  await expect(section(page, 'operation-general').getByLabel('文档地址')).toBeEnabled();
  await viewShot(page, section(page, 'operation-general').getByLabel('充值链接'), 'settings-admin');
});

test('the settings screens in both languages and both themes', async ({ page }) => {
  await signInRoot(page);
  for (const [lang, theme] of [
    ['zh', 'light'],
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
    const tabs =
      lang === 'zh' && theme === 'light'
        ? ['operation', 'ratelimit', 'models', 'system', 'other']
        : lang === 'en' && theme === 'dark'
          ? ['operation', 'ratelimit', 'models', 'system', 'other']
          : ['operation'];
    for (const tab of tabs) {
      await openTab(page, tab);
      await settle(page);
      await shot(page, `settings-${tab}-${lang}-${theme}`);
    }
  }
  await expect(page.getByRole('tab', { name: 'Operation' })).toBeVisible();
  await expect(section(page, 'operation-general').getByText('General settings', { exact: true })).toBeVisible();
  await page.evaluate(() => {
    localStorage.setItem('language', 'zh');
    localStorage.setItem('theme-mode', 'light');
  });
  // A phone: one column, the tabs scroll.
  await page.setViewportSize({ width: 390, height: 844 });
  await openTab(page, 'system');
  await viewShot(page, section(page, 'system-smtp'), 'settings-mobile');
});
