/**
 * Form rules the server also enforces, each told in the words of its own field, in both
 * languages: a token's model limit needs a model; a channel's base URL and a settings
 * address must be http(s) addresses (their own `x-messages`, not one generic text); JSON
 * fields with a template fill it in; the channel list fits a 1280 px window with priority,
 * weight and the actions in view; the dashboard without usage says so instead of drawing
 * empty axes.
 */
import { expect, test, type Page } from '@playwright/test';
import { callApi, createChannel, deleteChannelsNamed, deleteTokensNamed, signInRoot } from './gateway-helpers';
import { shot, viewShot } from './helpers';

const LANGS = [
  {
    lang: 'zh',
    limitModels: '启用模型限制',
    modelsRequired: '请至少选择一个模型！',
    baseUrl: 'Base URL 必须是以 http:// 或 https:// 开头的地址，中间不能有空格',
    serverAddressLabel: '服务器地址',
    serverAddress: '服务器地址必须以 http:// 或 https:// 开头，例如 https://yourdomain.com',
    fillTemplate: '填入模板',
    noUsage: '所选时间范围内暂无数据',
    inView: ['优先级', '权重', '操作'],
    wideOnly: ['响应时间', '已用/余额'],
  },
  {
    lang: 'en',
    limitModels: 'Limit models',
    modelsRequired: 'Please choose at least one model!',
    baseUrl: 'The base URL must be an address starting with http:// or https://, with no spaces in it',
    serverAddressLabel: 'Server address',
    serverAddress: 'The server address must start with http:// or https://, e.g. https://yourdomain.com',
    fillTemplate: 'Fill template',
    noUsage: 'No usage in this range',
    inView: ['Priority', 'Weight', 'Actions'],
    wideOnly: ['Response time', 'Used / balance'],
  },
] as const;

async function useLanguage(page: Page, lang: string): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
}

const drawer = (page: Page) => page.getByTestId('resource-drawer');
const fieldError = (page: Page, text: string) => page.locator('.ant-form-item-explain-error').filter({ hasText: text });

for (const l of LANGS) {
  test(`a token with the model limit on and no model is refused on its models field (${l.lang})`, async ({ page }) => {
    const name = `e2e-forms-tok-${l.lang}`;
    await signInRoot(page);
    await useLanguage(page, l.lang);
    await page.goto('/token/add');
    await drawer(page).locator('#name').fill(name);
    await drawer(page).getByRole('switch', { name: l.limitModels }).click();
    await page.getByTestId('drawer-submit').click();
    await expect(fieldError(page, l.modelsRequired)).toBeVisible();
    await viewShot(page, fieldError(page, l.modelsRequired), `forms-token-models-required-${l.lang}`);
    // Nothing was created, and the server refuses the same body by itself.
    const found = await callApi<{ items: unknown[] }>(page, 'get', `/api/token/search?keyword=${name}&p=0&page_size=10`);
    expect(found.data.items).toHaveLength(0);
    const direct = await page.request.post('/api/token/', { data: { name, model_limits_enabled: true, model_limits: '' }, headers: { 'New-Api-User': '1' } });
    expect(direct.status()).toBe(400);
    expect((await direct.json()) as unknown).toMatchObject({ success: false, message: '请至少选择一个模型！' });
    await deleteTokensNamed(page, name);
  });

  test(`a channel's base URL is checked with its own message, and JSON fields fill their templates (${l.lang})`, async ({ page }) => {
    await signInRoot(page);
    await useLanguage(page, l.lang);
    await page.goto('/channel/add');
    const baseUrl = drawer(page).locator('#base_url');
    await baseUrl.fill('api.example.com');
    await expect(fieldError(page, l.baseUrl)).toBeVisible();
    await baseUrl.fill('https://api.example.com');
    await expect(fieldError(page, l.baseUrl)).toHaveCount(0);

    const mapping = drawer(page).locator('#model_mapping');
    await mapping.fill('{not json');
    await mapping.blur();
    await drawer(page).getByTestId('fill-template-model_mapping').click();
    await expect(drawer(page).getByTestId('fill-template-model_mapping')).toHaveText(l.fillTemplate);
    expect(JSON.parse(await mapping.inputValue())).toEqual({ 'gpt-3.5-turbo': 'gpt-3.5-turbo-0125' });
    await expect(drawer(page).locator('.ant-form-item-has-error #model_mapping')).toHaveCount(0);
    const codes = drawer(page).locator('#status_code_mapping');
    await drawer(page).getByTestId('fill-template-status_code_mapping').click();
    expect(JSON.parse(await codes.inputValue())).toEqual({ '400': '500' });
    // Only fields with a declared template offer the button.
    await expect(drawer(page).getByTestId('fill-template-param_override')).toHaveCount(0);
    await viewShot(page, mapping, `forms-channel-template-${l.lang}`);
    await baseUrl.fill('ftp://files.example.com');
    await expect(fieldError(page, l.baseUrl)).toBeVisible();
    await viewShot(page, baseUrl, `forms-channel-base-url-${l.lang}`);
  });

  test(`a settings address shows the message of its own key (${l.lang})`, async ({ page }) => {
    await signInRoot(page);
    await useLanguage(page, l.lang);
    await page.goto('/setting?tab=system');
    const general = page.getByTestId('section-system-general');
    await general.getByLabel(l.serverAddressLabel).fill('gw.example.com');
    await page.getByTestId('save-system-general').click();
    await expect(general.getByText(l.serverAddress)).toBeVisible();
    await viewShot(page, general, `forms-settings-address-${l.lang}`);
    const status = await callApi<{ server_address: string }>(page, 'get', '/api/status');
    expect(status.data.server_address).not.toBe('gw.example.com');
  });

  test(`the channel list fits a 1280 px window with priority, weight and actions in view (${l.lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInRoot(page);
    await createChannel(page, `e2e-forms-list-${l.lang}-a-rather-long-channel-name-that-is-cut`, 'https://api.example.com', ['gpt-4o-mini', 'gpt-4o']);
    try {
      await channelListFits(page, l.lang, l.inView);
      // From 1600 px the monitoring columns come back.
      for (const title of l.wideOnly) await expect(page.getByRole('columnheader', { name: title })).toHaveCount(0);
      await page.setViewportSize({ width: 1680, height: 900 });
      for (const title of l.wideOnly) await expect(page.getByRole('columnheader', { name: title })).toBeVisible();
    } finally {
      await deleteChannelsNamed(page, `e2e-forms-list-${l.lang}`);
    }
  });

  test(`the dashboard without usage shows an empty state, not empty axes (${l.lang})`, async ({ page }) => {
    await signInRoot(page);
    await useLanguage(page, l.lang);
    await page.goto('/detail');
    // A user with no usage at all: the range holds nothing for them.
    await page.getByTestId('dashboard-username').fill('e2e-forms-nobody');
    await page.getByTestId('dashboard-query').click();
    await expect(page.getByTestId('dashboard-empty')).toContainText(l.noUsage);
    await expect(page.getByTestId('usage-chart')).toHaveCount(0);
    await shot(page, `forms-dashboard-empty-${l.lang}`);
  });
}

/** At 1280 × 800 the list has no horizontal overflow and its last columns are on screen. */
async function channelListFits(page: Page, lang: string, inView: readonly string[]): Promise<void> {
  await useLanguage(page, lang);
  await page.goto('/channel');
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  const table = page.locator('.ant-table-content, .ant-table-body').first();
  const overflow = await table.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const tableBox = (await table.boundingBox())!;
  for (const header of await page.locator('.ant-table-thead th').all()) {
    const box = (await header.boundingBox())!;
    expect(box.x + box.width, await header.innerText()).toBeLessThanOrEqual(tableBox.x + tableBox.width + 1);
  }
  for (const title of inView) await expect(page.locator('.ant-table-thead th').filter({ hasText: title })).toBeInViewport({ ratio: 1 });
  const row = page.locator('.ant-table-row').filter({ hasText: `e2e-forms-list-${lang}` });
  await expect(row.locator('input').first()).toBeInViewport();
  await expect(row.getByRole('button').last()).toBeInViewport();
  await shot(page, `forms-channel-list-1280-${lang}`);
}
