/**
 * Channels, rendered from resources/channels.ts against a fake OpenAI upstream started in
 * this worker: root creates a channel per key line (validation messages first), fetches
 * the upstream's models and adds custom ones, edits priority in the row, tests one channel
 * (and with a chosen model, and a failing one for the error path), tags two channels, sees
 * the tag in tag mode, edits and dissolves the tag, copies a channel; sets a channel's
 * proxy in its own field (kept in the extra settings) and tests the channel through it.
 * In English, the list, the form, a type's own inputs and the messages show the texts the
 * declaration and the channel type table carry inline.
 */
import { expect, test, type Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startSocks5Proxy } from '../helpers/proxies';
import { callApi, createChannel, deleteChannelsNamed, rowWith, shotVariants, signInRoot } from './gateway-helpers';
import { settle, shot, toast, viewShot } from './helpers';

test.describe.configure({ mode: 'serial' });

let fake: FakeOpenAI;

test.beforeAll(async () => {
  fake = await startFakeOpenAI({ keys: ['sk-fake-good', 'sk-fake-two'], models: ['gpt-4o', 'e2e-chan-a'] });
});

test.afterAll(async ({ browser }) => {
  // Later specs share the server: the channels made here (and their copy) go with this spec's fake.
  const page = await browser.newPage();
  await signInRoot(page);
  await deleteChannelsNamed(page, 'e2e-openai');
  await page.close();
  await fake?.close();
});

const drawer = (page: Page) => page.getByTestId('resource-drawer');
const channelRows = (page: Page) => rowWith(page, 'e2e-openai');

async function openMenuItem(page: Page, row: ReturnType<typeof rowWith>, item: string) {
  await row.getByRole('button', { name: '更多操作' }).click();
  await page.locator('.ant-dropdown:visible').getByText(item, { exact: true }).click();
}

test('root creates one channel per key line, with the validation messages and the model helpers', async ({ page }) => {
  // The monitoring columns (response time, used/balance) show in windows of 1600 px and more.
  await page.setViewportSize({ width: 1680, height: 900 });
  await signInRoot(page);
  await page.goto('/channel');
  await expect(page.getByRole('columnheader', { name: '响应时间' })).toBeVisible();
  await page.getByTestId('create-button').click();
  await expect(page).toHaveURL(/\/channel\/add$/);
  await drawer(page).getByTestId('drawer-submit').click();
  await expect(drawer(page).getByText('请填写渠道名称和渠道密钥！').first()).toBeVisible();
  await expect(drawer(page).getByText('请至少选择一个模型！')).toBeVisible();

  await drawer(page).getByLabel('名称').fill('e2e-openai');
  await drawer(page).getByLabel('代理', { exact: true }).fill(`${fake.url}/`);
  // Fetching from upstream needs a key first.
  await drawer(page).getByTestId('picker-upstream').click();
  await expect(toast(page, '请填写密钥')).toBeVisible();
  await drawer(page).getByLabel('密钥').fill('sk-fake-good\nsk-fake-two');
  await drawer(page).getByTestId('picker-upstream').click();
  await expect(toast(page, '已获取 2 个模型')).toBeVisible();
  await drawer(page).getByTestId('picker-custom-input').fill('e2e-chan-b, e2e-chan-c');
  await drawer(page).getByTestId('picker-custom-add').click();
  await drawer(page).getByTestId('picker-custom-input').fill('e2e-chan-b');
  await drawer(page).getByTestId('picker-custom-add').click();
  await expect(toast(page, '某些模型已存在！')).toBeVisible();
  const picker = drawer(page).getByTestId('picker-models');
  for (const model of ['gpt-4o', 'e2e-chan-a', 'e2e-chan-b', 'e2e-chan-c']) await expect(picker).toContainText(model);
  await drawer(page).getByLabel('模型重定向').fill('{not json');
  await drawer(page).getByLabel('默认测试模型').click();
  await expect(drawer(page).getByText('模型映射必须是合法的 JSON 格式！')).toBeVisible();
  await drawer(page).getByLabel('模型重定向').fill('{"e2e-chan-c": "e2e-chan-a"}');
  await drawer(page).getByLabel('默认测试模型').click();
  await settle(page);
  await shot(page, 'channels-create-drawer');

  await drawer(page).getByTestId('drawer-submit').click();
  await expect(toast(page, '渠道创建成功！')).toBeVisible();
  await expect(page).toHaveURL(/\/channel$/);
  await expect(channelRows(page)).toHaveCount(2);
  await expect(channelRows(page).first()).toContainText('未测试');
  await expect(channelRows(page).first()).toContainText('已启用');
});

test('the type changes the form: Azure asks for its endpoint and API version', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/channel/add');
  await expect(drawer(page).getByLabel('代理', { exact: true })).toBeVisible();
  await drawer(page).getByLabel('类型').fill('Azure');
  await page.locator('.ant-select-dropdown:visible').getByText('Azure OpenAI', { exact: true }).click();
  await expect(drawer(page).getByLabel('AZURE_OPENAI_ENDPOINT')).toBeVisible();
  await expect(drawer(page).getByLabel('默认 API 版本')).toBeVisible();
  await expect(drawer(page).getByLabel('组织')).toHaveCount(0);
});

test('the type table drives the form: AWS asks for AK|SK|region, Vertex AI for its JSON key and regions', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/channel/add');
  const chooseType = async (name: string) => {
    await drawer(page).getByLabel('类型').fill(name);
    await page.locator('.ant-select-dropdown:visible').getByText(name, { exact: true }).click();
  };
  await chooseType('AWS Claude');
  await expect(drawer(page).getByLabel('接口地址（可选）')).toBeVisible();
  await expect(drawer(page).getByPlaceholder(/AccessKey\|SecretAccessKey\|Region/)).toBeVisible();
  await expect(drawer(page).getByLabel('部署地区')).toHaveCount(0);
  await chooseType('Vertex AI');
  await expect(drawer(page).getByLabel('部署地区')).toBeVisible();
  await expect(drawer(page).getByPlaceholder(/服务账号的完整 JSON 密钥/)).toBeVisible();
  await expect(drawer(page).getByPlaceholder(/aiplatform\.googleapis\.com/)).toBeVisible();
});

test('Dify asks for its API address and the app key; Cohere and MokaAI for their keys; PaLM2 is no longer offered', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/channel/add');
  await drawer(page).getByLabel('类型').fill('PaLM');
  await expect(page.locator('.ant-select-dropdown:visible').getByText('Google PaLM2')).toHaveCount(0);
  const chooseType = async (name: string) => {
    await drawer(page).getByLabel('类型').fill(name);
    await page.locator('.ant-select-dropdown:visible').getByText(name, { exact: true }).click();
  };
  await chooseType('Dify');
  await expect(drawer(page).getByLabel('Dify API 地址')).toBeVisible();
  await expect(drawer(page).getByPlaceholder(/Dify 应用的 API 密钥/)).toBeVisible();
  await chooseType('Cohere');
  await expect(drawer(page).getByPlaceholder('Cohere API 密钥，一行一个')).toBeVisible();
  await chooseType('嵌入模型：MokaAI M3E');
  await expect(drawer(page).getByPlaceholder('MokaAI API 密钥，一行一个')).toBeVisible();
});

test('priority is edited in the row, and a channel is tested', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/channel');
  const first = channelRows(page).first();
  const priority = first.getByTestId('inline-priority');
  await priority.fill('5');
  await priority.press('Enter');
  await expect(toast(page, '渠道更新成功！')).toBeVisible();
  await page.reload();
  await expect(channelRows(page).first().getByTestId('inline-priority')).toHaveValue('5');

  await channelRows(page).first().getByTestId('row-action-test').click();
  await expect(toast(page, /通道 e2e-openai 测试成功，耗时 [\d.]+ 秒。/)).toBeVisible();
  expect(fake.requests.some((r) => r.path === '/v1/chat/completions')).toBe(true);

  await openMenuItem(page, channelRows(page).nth(1), '选择模型测试');
  const pick = page.getByTestId('pick-dialog');
  await pick.getByPlaceholder('筛选').fill('chan-b');
  await expect(pick.locator('.ant-list-item')).toHaveCount(1);
  await settle(page);
  await shot(page, 'channels-test-model-dialog');
  // A model without a price is refused by the gateway: the server's reason is shown.
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await pick.getByRole('button', { name: '选择' }).click();
  await expect(toast(page, /e2e-chan-b 倍率或价格未配置/)).toBeVisible();
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await pick.getByPlaceholder('筛选').fill('gpt-4o');
  await pick.getByRole('button', { name: '选择' }).click();
  await expect(toast(page, /通道 e2e-openai 测试成功/)).toBeVisible();
  const tested = fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => JSON.parse(r.body).model as string);
  expect(tested).toContain('gpt-4o');
});

test("a channel's proxy is set in its own field, kept in the extra settings, and used by the test", async ({ page }) => {
  const proxy = await startSocks5Proxy({ user: 'e2e', pass: 'e2e-pa55' });
  try {
    await signInRoot(page);
    const id = await createChannel(page, 'e2e-proxied', fake.url, ['gpt-4o']);
    await page.goto(`/channel/edit/${id}`);
    const field = drawer(page).getByLabel('代理地址');
    await expect(field).toHaveAttribute('placeholder', '例如: socks5://user:pass@host:port');
    // The reference's hint, on the label's help icon.
    await drawer(page).locator('.ant-form-item:has(input[placeholder^="例如: socks5://"]) .ant-form-item-tooltip').hover();
    await expect(page.getByRole('tooltip')).toContainText('用于配置网络代理，支持 http、https、socks5 和 socks5h 协议');
    const setting = drawer(page).getByLabel('渠道额外设置');
    await setting.fill('{"force_format": true}');
    // The field writes itself into the extra settings as it is typed; the server checks it.
    await field.fill('ftp://proxy.example:21');
    await expect(setting).toHaveValue('{"force_format":true,"proxy":"ftp://proxy.example:21"}');
    await drawer(page).getByTestId('drawer-submit').click();
    await expect(toast(page, '不支持的代理协议，仅支持 http、https、socks5 和 socks5h')).toBeVisible();
    await field.fill(proxy.url);
    await expect(setting).toHaveValue(JSON.stringify({ force_format: true, proxy: proxy.url }));
    await settle(page);
    await shot(page, 'channels-proxy-field');
    await drawer(page).getByTestId('drawer-submit').click();
    await expect(toast(page, '渠道更新成功！')).toBeVisible();

    await page.goto(`/channel/edit/${id}`);
    await expect(drawer(page).getByLabel('代理地址')).toHaveValue(proxy.url);
    // Edited in the extra settings, the field follows.
    await drawer(page).getByLabel('渠道额外设置').fill('{"force_format":true}');
    await expect(drawer(page).getByLabel('代理地址')).toHaveValue('');
    await page.goto('/channel');
    await rowWith(page, 'e2e-proxied').getByTestId('row-action-test').click();
    await expect(toast(page, /通道 e2e-proxied 测试成功/)).toBeVisible();
    expect(proxy.tunnels).toEqual([new URL(fake.url).host]);
    expect(fake.requests.filter((r) => proxy.carried.has(r.remotePort!)).map((r) => r.path)).toEqual(['/v1/chat/completions']);
    // The next cases count the other channels' rows.
    expect((await callApi(page, 'delete', `/api/channel/${id}/`)).success).toBe(true);
  } finally {
    await proxy.close();
  }
});

test('a failing channel shows the upstream error', async ({ page }) => {
  await signInRoot(page);
  await createChannel(page, 'e2e-broken', fake.url, ['gpt-4o'], 'sk-wrong');
  await page.goto('/channel');
  await rowWith(page, 'e2e-broken').getByTestId('row-action-test').click();
  await expect(toast(page, /401|Incorrect API key/)).toBeVisible();
  await rowWith(page, 'e2e-broken').getByRole('button', { name: '更多操作' }).click();
  await page.locator('.ant-dropdown:visible').getByText('删除', { exact: true }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  await expect(rowWith(page, 'e2e-broken')).toHaveCount(0);
});

test('channels are tagged, shown by tag, edited as a tag and untagged', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/channel');
  await page.getByTestId('batch-tag').click();
  await expect(toast(page, '请先选择要设置标签的通道！')).toBeVisible();
  for (const row of await channelRows(page).all()) await row.getByRole('checkbox').check();
  await page.getByTestId('batch-tag').click();
  const dialog = page.getByTestId('action-dialog');
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(dialog.getByText('标签不能为空！')).toBeVisible();
  await dialog.getByLabel('标签', { exact: true }).fill('e2e-tag');
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(toast(page, '已为 2 个通道设置标签！')).toBeVisible();

  await page.getByTestId('toggle-tag_mode').click();
  const tagRow = rowWith(page, '标签：e2e-tag');
  await expect(tagRow).toContainText('2 个渠道');
  await shot(page, 'channels-tag-mode');
  await tagRow.getByTestId('row-action-tagEdit').click();
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(toast(page, '没有任何修改！')).toBeVisible();
  await dialog.getByLabel('优先级').fill('3');
  await settle(page);
  await shot(page, 'channels-tag-edit-dialog');
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(toast(page, '已更新 2 个通道！')).toBeVisible();
  await tagRow.locator('.ant-table-row-expand-icon').click();
  await expect(page.locator('.ant-table-row').filter({ hasText: 'e2e-openai' })).toHaveCount(2);
  for (const input of await page.getByTestId('inline-priority').all()) await expect(input).toHaveValue('3');

  await tagRow.getByTestId('row-action-tagEdit').click();
  await dialog.getByLabel('标签名').fill('');
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(toast(page, '已更新 2 个通道！').last()).toBeVisible();
  await expect(rowWith(page, '标签：e2e-tag')).toHaveCount(0);
  await expect(channelRows(page)).toHaveCount(2);
  await page.getByTestId('toggle-tag_mode').click();
});

test('a channel is copied under a new name, keeping its key on the server', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/channel');
  await openMenuItem(page, channelRows(page).first(), '复制渠道');
  await expect(toast(page, '渠道复制成功')).toBeVisible();
  const copy = rowWith(page, 'e2e-openai_复制');
  await expect(copy).toHaveCount(1);
  await copy.getByTestId('row-action-test').click();
  await expect(toast(page, /e2e-openai_复制 测试成功/)).toBeVisible();
});

test('the channels screen in both languages and themes, and the id sort is remembered', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/channel');
  await page.getByTestId('toggle-id_sort').click();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('id-sort'))).toBe('true');
  await page.reload();
  await expect(page.getByTestId('toggle-id_sort')).toHaveAttribute('aria-checked', 'true');
  await shotVariants(page, 'channels-list', '/channel', (p) => channelRows(p));
  await shotVariants(page, 'channels-edit', '/channel/add', (p) => p.getByTestId('resource-drawer'));
  await page.evaluate(() => localStorage.setItem('id-sort', 'false'));
});

test('in English the list, the form, the type inputs and the messages use the declaration texts', async ({ page }) => {
  await signInRoot(page);
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  try {
    await page.goto('/channel');
    for (const header of ['Name', 'Groups', 'Type', 'Status', 'Priority', 'Weight']) await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    await expect(page.getByText('Group by tag', { exact: true })).toBeVisible();
    await expect(page.getByTestId('create-button')).toHaveText('Add channel');
    await channelRows(page).first().getByTestId('row-action-test').click();
    await expect(toast(page, /Channel e2e-openai\S* works: answered in [\d.]+ s\./)).toBeVisible();

    await page.getByTestId('create-button').click();
    await drawer(page).getByTestId('drawer-submit').click();
    await expect(drawer(page).getByText('Please enter the channel name and key!').first()).toBeVisible();
    await expect(drawer(page).getByText('Please choose at least one model!')).toBeVisible();
    await expect(drawer(page).getByLabel('Proxy', { exact: true })).toHaveAttribute('placeholder', 'Optional custom base URL, without a trailing /v1 or /');
    await expect(drawer(page).getByLabel('Key', { exact: true })).toHaveAttribute('placeholder', 'Keys, one per line');
    await drawer(page).getByLabel('Type', { exact: true }).fill('Azure');
    await page.locator('.ant-select-dropdown:visible').getByText('Azure OpenAI', { exact: true }).click();
    await expect(drawer(page).getByLabel('AZURE_OPENAI_ENDPOINT')).toHaveAttribute('placeholder', 'Your AZURE_OPENAI_ENDPOINT, e.g. https://docs-test-001.openai.azure.com');
    await expect(drawer(page).getByLabel('Default API version')).toHaveAttribute('placeholder', 'e.g. 2024-12-01-preview');
    await expect(drawer(page).getByText('Advanced', { exact: true })).toBeVisible();
    await viewShot(page, drawer(page).getByLabel('Default API version'), 'channels-azure-inputs-en');
    await viewShot(page, drawer(page).getByText('Advanced', { exact: true }), 'channels-advanced-en');
  } finally {
    await page.evaluate(() => localStorage.setItem('language', 'zh'));
  }
  // The edit form of a stored channel, in both languages.
  await page.goto('/channel');
  await channelRows(page).last().getByTestId('row-action-edit').click();
  await expect(page).toHaveURL(/\/channel\/edit\/\d+$/);
  await shotVariants(page, 'channels-edit-stored', new URL(page.url()).pathname, (p) => p.getByTestId('resource-drawer'));
});
