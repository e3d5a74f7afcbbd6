/**
 * Pricing for visitors, the playground against a fake upstream (streamed answer, error
 * answer, clear, settings kept, mobile panel), the chat redirect (no enabled token, then a
 * token put into the link), the dashboard, and the drawing and music task logs for users and
 * administrators.
 */
import { expect, test, type Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { callApi, createChannel, rowWith, setOptions, shotVariants, signIn, signInRoot, USER, ensureUser } from './gateway-helpers';
import { settle, shot, toast } from './helpers';

test.describe.configure({ mode: 'serial' });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const MODEL = 'gpt-4.1-nano';
let fake: FakeOpenAI;

test.beforeAll(async () => {
  fake = await startFakeOpenAI({ keys: ['sk-fake-good'], models: [MODEL] });
});

test.afterAll(async () => {
  await fake?.close();
});

async function chooseModel(page: Page, model: string) {
  await page.getByTestId('playground-model').click();
  await page.keyboard.type(model);
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${model}"]`).click();
}

test('root sets up a channel serving a priced model and a per-call model', async ({ page }) => {
  await signInRoot(page);
  await ensureUser(page);
  await createChannel(page, 'e2e-public', fake.url, [MODEL, 'mj_imagine']);
  // The dashboard's hourly rows are written a minute after the first use (restored below).
  await setOptions(page, { DataExportInterval: '1' });
});

test('a visitor sees the prices with the default group ratio, searches and copies', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByTestId('pricing-banner')).toContainText('您还未登录，显示的价格为默认分组倍率：1');
  const nano = rowWith(page, MODEL);
  await expect(nano).toContainText('按量计费');
  await expect(nano).toContainText('提示 $0.1 / 1M tokens');
  await expect(rowWith(page, 'mj_imagine')).toContainText('模型价格 $0.1 / 次');
  await expect(rowWith(page, 'mj_imagine')).toContainText('按次计费');
  await expect(page.locator('.ant-pagination-total-text')).toHaveText(/^第 1 - (\d+) 条，共 \1 条$/);
  await expect(page.locator('.ant-pagination-options')).toHaveCount(0);
  await expect(page.getByTestId('pricing-copy')).toBeDisabled();
  await page.getByTestId('pricing-search').fill('4.1nano');
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await nano.getByRole('checkbox').check();
  await page.getByTestId('pricing-copy').click();
  await expect(toast(page, `已复制：${MODEL}`)).toBeVisible();
  await page.getByTestId('pricing-search').fill('');
  await shotVariants(page, 'pricing-visitor', '/pricing', (p) => rowWith(p, MODEL));
});

test('a signed-in user sees their own group and ratio', async ({ page }) => {
  await signIn(page, USER);
  await page.goto('/pricing');
  await expect(page.getByTestId('pricing-banner')).toContainText('您的默认分组为：default，分组倍率为：1');
});

test('the playground streams an answer, shows an upstream error, clears, keeps its settings', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/playground');
  await chooseModel(page, MODEL);
  fake.script({ text: 'Streaming works in the playground.', delayMs: 150 });
  await page.getByTestId('playground-input').fill('Hello there');
  await page.getByTestId('playground-send').click();
  await expect(page.getByTestId('chat-user')).toContainText('Hello there');
  const answer = page.getByTestId('chat-assistant');
  await expect(answer).toHaveAttribute('data-status', /loading|incomplete/);
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer).toContainText('Streaming works in the playground.');
  const sent = JSON.parse(fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body);
  expect(sent).toMatchObject({ model: MODEL, stream: true });
  expect(sent.messages[0]).toMatchObject({ role: 'system' });
  expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'Hello there' });
  await settle(page);
  await shot(page, 'playground-answer');

  fake.script({ error: { status: 400, message: 'the fake upstream refused this' } });
  await page.getByTestId('playground-input').fill('Fail please');
  await page.getByTestId('playground-send').click();
  const failed = page.getByTestId('chat-assistant').nth(1);
  await expect(failed).toHaveAttribute('data-status', 'error');
  await expect(failed).toContainText('the fake upstream refused this');
  await shot(page, 'playground-error');

  await page.getByTestId('playground-clear').click();
  await expect(page.getByTestId('chat-user')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('playground-model')).toContainText(MODEL);
  await shotVariants(page, 'playground', '/playground', (p) => p.getByTestId('playground-settings'));
});

test('on a phone the playground settings open from a button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signInRoot(page);
  await page.goto('/playground');
  await expect(page.getByTestId('playground-settings')).toHaveCount(0);
  await page.getByTestId('playground-panel-toggle').click();
  await expect(page.getByTestId('playground-settings')).toBeVisible();
  await shot(page, 'playground-mobile-panel');
});

test('the chat redirect needs an enabled token, then opens the chat with it', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/chat2link');
  await expect(toast(page, '当前没有可用的启用令牌，请确认是否有令牌处于启用状态！')).toBeVisible();
  await expect(page).toHaveURL(/\/token$/, { timeout: 5000 });

  await page.route('https://app.nextchat.dev/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>chat</title>' }));
  await signIn(page, USER);
  const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  expect((await callApi(page, 'post', '/api/token/', { name: 'e2e-chat', unlimited_quota: true }, userId)).success).toBe(true);
  await page.goto('/chat2link');
  await expect(page).toHaveURL(/^https:\/\/app\.nextchat\.dev\/#\/\?settings=/);
  expect(decodeURIComponent(page.url())).toMatch(/"key":"sk-[A-Za-z0-9]{48}"/);
});

test('the dashboard shows totals and usage per model', async ({ page }) => {
  test.setTimeout(450_000);
  await signInRoot(page);
  try {
    await page.goto('/detail');
    await expect(page.getByTestId('dashboard-quota')).toBeVisible();
    const count = page.getByTestId('dashboard-count').locator('.ant-statistic-content');
    // The playground's request reaches the dashboard when the aggregator flushes: a minute
    // after the first use, or up to DataExportInterval (five minutes) when earlier tests
    // started the clock; the poll covers the whole interval.
    await expect
      .poll(
        async () => {
          await page.getByTestId('dashboard-query').click();
          return Number((await count.innerText()).replace(/,/g, ''));
        },
        { timeout: 330_000, intervals: [5_000] },
      )
      .toBeGreaterThan(0);
    await expect(page.getByTestId('usage-chart').locator('rect')).not.toHaveCount(0);
    await expect(page.getByTestId('model-share')).toContainText(MODEL);
    await page.getByTestId('dashboard-granularity').getByText('天').click();
    await page.getByTestId('dashboard-query').click();
    await expect(page.getByTestId('usage-chart').locator('rect')).not.toHaveCount(0);
    await shotVariants(page, 'dashboard', '/detail', (p) => p.getByTestId('usage-chart'));
  } finally {
    await setOptions(page, { DataExportInterval: '5' });
  }
});

test('drawing and music task logs: channel filters for administrators only', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/midjourney');
  await expect(page.getByTestId('search-form').getByPlaceholder('渠道 ID')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '花费时间' })).toBeVisible();
  await shotVariants(page, 'midjourney-admin', '/midjourney', (p) => p.getByTestId('search-form'));
  await shotVariants(page, 'tasks-admin', '/task', (p) => p.getByTestId('search-form'));
  await signIn(page, USER);
  await page.goto('/task');
  await expect(page.getByTestId('search-form').getByPlaceholder('任务 ID')).toBeVisible();
  await expect(page.getByTestId('search-form').getByPlaceholder('渠道 ID')).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: '渠道' })).toHaveCount(0);
  await page.goto('/midjourney');
  await expect(page.getByTestId('search-form').getByPlaceholder('渠道 ID')).toHaveCount(0);
});
