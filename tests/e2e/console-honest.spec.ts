/**
 * Issue #15 items 2–5 as an administrator meets them: the site notice on the home page (shown,
 * sanitised, closed for today, back when its text changes), honest amounts in the usage log
 * and its totals, consume rows that open to their billing breakdown, and unlimited tokens
 * reading "unlimited" — in Chinese and English, light and dark.
 */
import { expect, test, type Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { callApi, deleteChannelsNamed, deleteTokensNamed, rowWith, setOptions, signInRoot } from './gateway-helpers';
import { settle } from './helpers';

test.describe.configure({ mode: 'serial' });

const MODEL = 'gpt-4.1-nano';
const UPSTREAM = 'gpt-4.1-nano-2025-04-14';
const NOTICE = '**维护通知** 今晚 22:00 升级。<img src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script>';
let fake: FakeOpenAI;

test.beforeAll(async () => {
  fake = await startFakeOpenAI({ keys: ['sk-fake-good'], models: [MODEL, UPSTREAM] });
});

test.afterAll(async ({ browser }) => {
  // Later specs share the server: the channel on this spec's fake goes with it.
  const page = await browser.newPage();
  await signInRoot(page);
  await deleteChannelsNamed(page, 'e2e-honest');
  await deleteTokensNamed(page, 'e2e-limited');
  await deleteTokensNamed(page, 'e2e-unlimited');
  await page.close();
  await fake?.close();
});

async function prefer(page: Page, lang: 'zh' | 'en', theme: 'light' | 'dark' = 'light') {
  await page.evaluate(
    ([l, th]) => {
      localStorage.setItem('language', l);
      localStorage.setItem('theme-mode', th);
    },
    [lang, theme] as const,
  );
}

async function snap(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await settle(page);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
}

/** Opens the home page and waits until the notice has been fetched. */
async function openHome(page: Page) {
  const notice = page.waitForResponse((r) => r.url().endsWith('/api/notice'));
  await page.goto('/');
  await notice;
}

test('root sets up a mapped channel, a limited and an unlimited token, and makes a request', async ({ page }) => {
  await signInRoot(page);
  const channel = await callApi(page, 'post', '/api/channel/', {
    name: 'e2e-honest',
    type: 1,
    key: 'sk-fake-good',
    base_url: fake.url,
    models: MODEL,
    groups: ['default'],
    model_mapping: JSON.stringify({ [MODEL]: UPSTREAM }),
  });
  expect(channel.success, channel.message).toBe(true);
  const limited = await callApi(page, 'post', '/api/token/', { name: 'e2e-limited', remain_quota: 250000, unlimited_quota: false, expired_time: -1 });
  expect(limited.success, limited.message).toBe(true);
  const made = await callApi<{ key: string }[]>(page, 'post', '/api/token/', { name: 'e2e-unlimited', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  expect(made.success, made.message).toBe(true);
  const key = made.data[0].key;
  fake.script({ usage: { prompt: 1000, completion: 500 } });
  const reply = await page.request.post('/v1/chat/completions', {
    headers: { Authorization: `Bearer sk-${key}` },
    data: { model: MODEL, messages: [{ role: 'user', content: 'hello' }] },
  });
  expect(reply.status(), await reply.text()).toBe(200);
  expect(fake.requests.at(-1)!.body).toContain(UPSTREAM);
});

test('the usage log shows the real cost and opens to the billing breakdown (zh)', async ({ page }) => {
  await signInRoot(page);
  await prefer(page, 'zh');
  await page.goto('/log');
  const row = rowWith(page, 'e2e-unlimited');
  // (1000 + 500 × 4) × 0.05 × 1 = 150 units = $0.0003, never $0.00.
  await expect(row).toContainText('$0.0003');
  await expect(row).not.toContainText(/\$0\.00(?!\d)/);
  await expect(page.getByTestId('stat-strip')).toContainText('$0.0003');
  await expect(page.getByRole('columnheader', { name: '重试渠道' })).toBeVisible();
  await row.locator('.ant-table-row-expand-icon').click();
  const detail = page.getByTestId('row-detail');
  await expect(detail).toContainText('模型倍率');
  await expect(detail).toContainText('0.05');
  await expect(detail).toContainText('补全倍率');
  await expect(detail).toContainText('实际上游模型');
  await expect(detail).toContainText(UPSTREAM);
  await expect(detail).toContainText('(1,000 + 500 × 4) × 0.05 × 1 = 150 → $0.0003');
  await expect(detail).toContainText('重试渠道（按顺序）');
  await expect(detail).toContainText('总用时');
  await snap(page, 'log-detail-zh-light');
  await prefer(page, 'zh', 'dark');
  await page.reload();
  await rowWith(page, 'e2e-unlimited').locator('.ant-table-row-expand-icon').click();
  await expect(page.getByTestId('row-detail')).toBeVisible();
  await snap(page, 'log-detail-zh-dark');
});

test('the usage log in English, light and dark', async ({ page }) => {
  await signInRoot(page);
  for (const theme of ['light', 'dark'] as const) {
    await prefer(page, 'en', theme);
    await page.goto('/log');
    const row = rowWith(page, 'e2e-unlimited');
    await expect(row).toContainText('$0.0003');
    await expect(page.getByRole('columnheader', { name: 'Channels tried' })).toBeVisible();
    await row.locator('.ant-table-row-expand-icon').click();
    const detail = page.getByTestId('row-detail');
    await expect(detail).toContainText('Model ratio');
    await expect(detail).toContainText('Completion ratio');
    await expect(detail).toContainText('Upstream model');
    await expect(detail).toContainText('Billing');
    await expect(detail).toContainText('$0.0003');
    await snap(page, `log-detail-en-${theme}`);
  }
  // On a phone the opened detail stacks its lines within the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await rowWith(page, 'e2e-unlimited').locator('.ant-table-row-expand-icon').click();
  const detail = page.getByTestId('row-detail');
  await expect(detail).toContainText('Channels tried (in order)');
  const box = (await detail.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await snap(page, 'log-detail-en-dark-mobile');
  await prefer(page, 'zh');
});

test('unlimited tokens read unlimited, limited ones their balance, in both languages', async ({ page }) => {
  await signInRoot(page);
  for (const [lang, word] of [
    ['zh', '无限制'],
    ['en', 'Unlimited'],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await prefer(page, lang, theme);
      await page.goto('/token');
      const unlimited = rowWith(page, 'e2e-unlimited');
      await expect(unlimited).toContainText(word);
      await expect(unlimited).not.toContainText('$-0');
      await expect(unlimited).not.toContainText(/\$0\.00(?!\d)/);
      await expect(rowWith(page, 'e2e-limited')).toContainText('$0.50');
      await snap(page, `tokens-${lang}-${theme}`);
    }
  }
  await prefer(page, 'zh');
});

test('the notice opens on the home page, sanitised, and close-for-today holds until it changes', async ({ page }) => {
  await signInRoot(page);
  await setOptions(page, { Notice: NOTICE });
  await prefer(page, 'zh');
  await page.evaluate(() => localStorage.removeItem('notice_close_date'));
  await openHome(page);
  const dialog = page.getByTestId('notice-dialog');
  await expect(dialog.getByText('系统公告')).toBeVisible();
  await expect(dialog.locator('.sy-notice strong')).toHaveText('维护通知');
  await expect(dialog.locator('.sy-notice script')).toHaveCount(0);
  await expect(dialog.locator('.sy-notice img')).not.toHaveAttribute('onerror', /.*/);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await snap(page, 'notice-zh-light');

  // Plain close hides it for this visit only.
  await page.getByTestId('notice-close').click();
  await expect(dialog.locator('.sy-notice')).toBeHidden();
  await openHome(page);
  await expect(page.getByTestId('notice-dialog').locator('.sy-notice')).toBeVisible();

  // Close for today is remembered across loads.
  await page.getByTestId('notice-close-today').click();
  await expect(page.getByTestId('notice-dialog').locator('.sy-notice')).toBeHidden();
  await openHome(page);
  await settle(page);
  await expect(page.locator('.sy-notice')).toHaveCount(0);

  // A new text shows again the same day.
  await setOptions(page, { Notice: '新公告：**价格调整**' });
  await openHome(page);
  await expect(page.getByTestId('notice-dialog').locator('.sy-notice strong')).toHaveText('价格调整');
  await prefer(page, 'zh', 'dark');
  await openHome(page);
  await snap(page, 'notice-zh-dark');
});

test('the notice in English, light and dark', async ({ page }) => {
  await signInRoot(page);
  await setOptions(page, { Notice: '**Maintenance** tonight at 22:00 UTC.' });
  for (const theme of ['light', 'dark'] as const) {
    await prefer(page, 'en', theme);
    await openHome(page);
    const dialog = page.getByTestId('notice-dialog');
    await expect(dialog.getByText('Notice', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close for today' })).toBeVisible();
    await expect(dialog.locator('.sy-notice strong')).toHaveText('Maintenance');
    await snap(page, `notice-en-${theme}`);
  }
  await page.getByTestId('notice-close-today').click();
  await openHome(page);
  await settle(page);
  await expect(page.locator('.sy-notice')).toHaveCount(0);
  await setOptions(page, { Notice: '' });
  await prefer(page, 'zh');
});
