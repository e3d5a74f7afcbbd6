/**
 * No number is changed silently: a value outside a field's bounds gets that field's error and
 * nothing is saved — the redemption batch size (the server's words in Chinese), a channel's
 * priority edited in its row, the retry count and the per-period completions of the settings.
 * Inputs never move a typed number to the nearest bound. In both languages.
 */
import { expect, test, type Page } from '@playwright/test';
import { callApi, createChannel, deleteChannelsNamed, rowWith, signInRoot } from './gateway-helpers';
import { settle, shot, toast } from './helpers';

test.describe.configure({ mode: 'serial' });

const LANGS = [
  {
    lang: 'zh',
    count: '生成数量',
    countError: '一次兑换码批量生成的个数不能大于 100',
    countLow: '兑换码个数必须大于0',
    priorityError: '优先级必须是不小于 -999 的整数',
    retry: '失败重试次数',
    retryError: '不能小于 0',
    completions: '用户每周期最多请求完成次数',
    completionsError: '不能小于 1',
    checkInput: '请检查输入',
    name: '名称',
  },
  {
    lang: 'en',
    count: 'How many',
    countError: 'How many must be at most 100',
    countLow: 'How many must be at least 1',
    priorityError: 'Priority must be a whole number of at least -999',
    retry: 'Retry times on failure',
    retryError: 'Must be at least 0',
    completions: 'Most successful requests per period',
    completionsError: 'Must be at least 1',
    checkInput: 'Please check your input',
    name: 'Name',
  },
] as const;

async function useLanguage(page: Page, lang: string): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
}

const drawer = (page: Page) => page.getByTestId('resource-drawer');
const section = (page: Page, id: string) => page.getByTestId(`section-${id}`);

async function redemptionCount(page: Page, name: string): Promise<number> {
  const found = await callApi<{ total: number }>(page, 'get', `/api/redemption/search?keyword=${name}&p=0&page_size=100`);
  return found.data.total;
}

let channelId = 0;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInRoot(page);
  channelId = await createChannel(page, 'e2e-numbers', 'https://api.example.com', ['gpt-4o-mini']);
  await page.close();
});

test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInRoot(page);
  await deleteChannelsNamed(page, 'e2e-numbers');
  await page.close();
});

for (const l of LANGS) {
  test(`a redemption batch over 100 (or under 1) is refused with the field's error, nothing created (${l.lang})`, async ({ page }) => {
    await signInRoot(page);
    await useLanguage(page, l.lang);
    await page.goto('/redemption');
    await page.getByTestId('create-button').click();
    const name = `e2e-num-${l.lang}`;
    await drawer(page).getByLabel(l.name, { exact: true }).fill(name);
    const count = drawer(page).getByLabel(l.count);
    await count.fill('101');
    await count.blur();
    // The typed number stays as typed: no clamping to 100.
    await expect(count).toHaveValue('101');
    await drawer(page).getByTestId('drawer-submit').click();
    await expect(drawer(page).locator('.ant-form-item-explain-error').filter({ hasText: l.countError })).toBeVisible();
    await settle(page);
    await shot(page, `numbers-redemption-count-${l.lang}`);
    await count.fill('0');
    await drawer(page).getByTestId('drawer-submit').click();
    await expect(drawer(page).locator('.ant-form-item-explain-error').filter({ hasText: l.countLow })).toBeVisible();
    await expect(count).toHaveValue('0');
    expect(await redemptionCount(page, name)).toBe(0);
  });

  test(`a row priority under -999 is refused and not saved (${l.lang})`, async ({ page }) => {
    await signInRoot(page);
    await useLanguage(page, l.lang);
    await page.goto('/channel');
    const priority = rowWith(page, 'e2e-numbers').getByTestId('inline-priority');
    await expect(priority).toBeVisible();
    const before = await priority.inputValue();
    await priority.fill('-1000');
    await priority.press('Enter');
    await expect(toast(page, l.priorityError)).toBeVisible();
    await expect(priority).toHaveValue(before);
    const stored = await callApi<{ priority: number }>(page, 'get', `/api/channel/${channelId}`);
    expect(stored.data.priority).toBe(Number(before));
  });

  test(`settings refuse a retry count of -1 and per-period completions of 0, and keep what was stored (${l.lang})`, async ({ page }) => {
    await signInRoot(page);
    await useLanguage(page, l.lang);
    const options = async () => new Map((await callApi<{ key: string; value: string }[]>(page, 'get', '/api/option/')).data.map((o) => [o.key, o.value]));
    const before = await options();

    await page.goto('/setting?tab=operation');
    const retry = section(page, 'operation-general').getByLabel(l.retry);
    await retry.fill('-1');
    await retry.blur();
    await expect(retry).toHaveValue('-1');
    await page.getByTestId('save-operation-general').click();
    await expect(toast(page, l.checkInput).first()).toBeVisible();
    await expect(section(page, 'operation-general').locator('.ant-form-item-explain-error').filter({ hasText: l.retryError })).toBeVisible();

    await page.goto('/setting?tab=ratelimit');
    const completions = section(page, 'ratelimit-model').getByLabel(l.completions);
    await completions.fill('0');
    await completions.blur();
    await expect(completions).toHaveValue('0');
    await page.getByTestId('save-ratelimit-model').click();
    await expect(toast(page, l.checkInput).first()).toBeVisible();
    await expect(section(page, 'ratelimit-model').locator('.ant-form-item-explain-error').filter({ hasText: l.completionsError })).toBeVisible();
    await settle(page);
    await shot(page, `numbers-settings-${l.lang}`);

    const after = await options();
    expect(after.get('RetryTimes')).toBe(before.get('RetryTimes'));
    expect(after.get('ModelRequestRateLimitSuccessCount')).toBe(before.get('ModelRequestRateLimitSuccessCount'));
  });
}
