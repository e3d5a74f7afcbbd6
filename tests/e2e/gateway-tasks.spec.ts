/**
 * Drawing and music tasks end to end (issue #17), against a fake midjourney-proxy and a fake
 * Suno started in this worker: root adds a Midjourney and a Suno channel, an ordinary user
 * makes an API token, and a plain HTTP client (no console session) submits two imagine and
 * two MUSIC tasks with it. One of each succeeds upstream and one fails; the server's own
 * poller (and, for a drawing, the notify callback, sent twice) brings them to their end.
 * Each submission is charged once, each failure refunded once, to the unit, for user and
 * token. The drawing log (/midjourney) and the music log (/task) then show the rows to root
 * with the channel column and filter, and to the user without them; the drawing's image
 * loads through our /mj/image proxy and the clips play from http(s) addresses.
 */
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { startFakeMidjourney, TINY_PNG, type FakeMidjourney } from '../fakes/midjourney-proxy';
import { startFakeSuno, TINY_MP3, type FakeSuno } from '../fakes/suno';
import { callApi, ensureUser, rowWith, shotVariants, signIn, signInRoot } from './gateway-helpers';
import { settle, shot } from './helpers';

test.describe.configure({ mode: 'serial' });

/** Its own user, so other specs' top-ups and charges cannot move the balance checked here. */
const TASK_USER = { username: 'gwtasks', password: 'gwtasks-pass1' };
/** mj_imagine and suno_music: ModelPrice 0.1 USD × group ratio 1 × 500 000 quota per USD. */
const PRICE = 50_000;
const START_QUOTA = 5_000_000;
const TOKEN_QUOTA = 1_000_000;
/** Two rounds of the master node's poller (every 15 s) and some slack. */
const POLLER_WAIT = { timeout: 40_000, intervals: [1_000] };

const DRAW_FAIL_REASON = 'Banned prompt detected: e2e';
const MUSIC_FAIL_REASON = 'e2e: the music model gave up';

let mj: FakeMidjourney;
let suno: FakeSuno;
let mjChannel = 0;
let sunoChannel = 0;
let userId = 0;
let tokenId = 0;
let apiKey = '';
const ids = { drawOk: '', drawFail: '', musicOk: '', musicFail: '' };

test.beforeAll(async () => {
  mj = await startFakeMidjourney({ secret: 'e2e-mj-secret' });
  suno = await startFakeSuno({ key: 'e2e-suno-key' });
});

test.afterAll(async () => {
  await mj?.close();
  await suno?.close();
});

/** A channel of `type` (as root); answers its id. */
async function createTypedChannel(page: Page, name: string, type: number, baseUrl: string, key: string, models: string[]): Promise<number> {
  const reply = await callApi<{ ids: number[] }>(page, 'post', '/api/channel/', { name, type, key, base_url: baseUrl, models: models.join(','), groups: ['default'] });
  expect(reply.success, reply.message).toBe(true);
  return reply.data.ids[0];
}

interface Balances {
  quota: number;
  used: number;
  token: number;
  tokenUsed: number;
}

/** The user's and the token's balance through the API (signed in as the user). */
async function balances(page: Page): Promise<Balances> {
  const user = await callApi<{ quota: number; used_quota: number }>(page, 'get', '/api/user/self', undefined, userId);
  expect(user.success, user.message).toBe(true);
  const token = await callApi<{ remain_quota: number; used_quota: number }>(page, 'get', `/api/token/${tokenId}`, undefined, userId);
  expect(token.success, token.message).toBe(true);
  return { quota: user.data.quota, used: user.data.used_quota, token: token.data.remain_quota, tokenUsed: token.data.used_quota };
}

interface LogRow {
  type: number;
  content: string;
  quota: number;
  model_name: string;
}

async function ownLogs(page: Page, type: number): Promise<LogRow[]> {
  const reply = await callApi<{ items: LogRow[] }>(page, 'get', `/api/log/self/?type=${type}&p=0&page_size=100`, undefined, userId);
  expect(reply.success, reply.message).toBe(true);
  return reply.data.items;
}

const mjHeaders = () => ({ 'mj-api-secret': apiKey });
const sunoHeaders = () => ({ authorization: `Bearer ${apiKey}` });

async function imagine(request: APIRequestContext, prompt: string): Promise<string> {
  const reply = await request.post('/mj/submit/imagine', { headers: mjHeaders(), data: { prompt } });
  expect(reply.status(), await reply.text()).toBe(200);
  const body = (await reply.json()) as { code: number; description: string; result: string };
  expect(body).toMatchObject({ code: 1, description: '提交成功' });
  expect(body.result).toMatch(/^\d{16}$/);
  return body.result;
}

async function music(request: APIRequestContext, title: string): Promise<string> {
  const reply = await request.post('/suno/submit/MUSIC', { headers: sunoHeaders(), data: { gpt_description_prompt: `a short song called ${title}`, title, tags: 'e2e, pop' } });
  expect(reply.status(), await reply.text()).toBe(200);
  const body = (await reply.json()) as { code: string; data: string };
  expect(body.code).toBe('success');
  expect(body.data).toMatch(/^[0-9a-f-]{36}$/);
  return body.data;
}

async function drawing(request: APIRequestContext, id: string): Promise<Record<string, unknown>> {
  const reply = await request.get(`/mj/task/${id}/fetch`, { headers: mjHeaders() });
  expect(reply.status(), await reply.text()).toBe(200);
  return (await reply.json()) as Record<string, unknown>;
}

async function musicTask(request: APIRequestContext, id: string): Promise<Record<string, unknown>> {
  const reply = await request.get(`/suno/fetch/${id}`, { headers: sunoHeaders() });
  expect(reply.status(), await reply.text()).toBe(200);
  const body = (await reply.json()) as { code: string; data: Record<string, unknown> };
  expect(body.code).toBe('success');
  return body.data;
}

/** The <img> of a row's image cell (the test id sits on the image or its wrapper). */
async function naturalWidth(cell: Locator): Promise<number> {
  return cell.evaluate((el) => {
    const img = el instanceof HTMLImageElement ? el : el.querySelector('img');
    return img && img.complete ? img.naturalWidth : 0;
  });
}

test('root adds a Midjourney and a Suno channel and an ordinary user with quota', async ({ page }) => {
  await signInRoot(page);
  mjChannel = await createTypedChannel(page, 'e2e-mj', 2, mj.url, mj.secret, ['mj_imagine', 'mj_upscale']);
  sunoChannel = await createTypedChannel(page, 'e2e-suno', 36, suno.url, suno.key, ['suno_music', 'suno_lyrics']);
  expect(sunoChannel).toBeGreaterThan(mjChannel);
  userId = await ensureUser(page, TASK_USER);
  const set = await callApi(page, 'put', '/api/user/', { id: userId, quota: START_QUOTA });
  expect(set.success, set.message).toBe(true);
  const user = await callApi<{ quota: number; role: number }>(page, 'get', `/api/user/${userId}`);
  expect(user.data).toMatchObject({ quota: START_QUOTA, role: 1 });
});

test('the user makes an API token', async ({ page }) => {
  await signIn(page, TASK_USER);
  const made = await callApi<{ id: number; key: string }[]>(page, 'post', '/api/token/', { name: 'e2e-tasks', remain_quota: TOKEN_QUOTA, unlimited_quota: false, expired_time: -1 }, userId);
  expect(made.success, made.message).toBe(true);
  expect(made.data).toHaveLength(1);
  tokenId = made.data[0].id;
  apiKey = made.data[0].key.startsWith('sk-') ? made.data[0].key : `sk-${made.data[0].key}`;
  expect(apiKey).toMatch(/^sk-[A-Za-z0-9]{48}$/);
  expect(await balances(page)).toEqual({ quota: START_QUOTA, used: 0, token: TOKEN_QUOTA, tokenUsed: 0 });
});

test('tasks submitted with the token are charged once; failures are refunded once', async ({ page, request }) => {
  test.setTimeout(150_000);
  await signIn(page, TASK_USER);
  const before = await balances(page);

  // Without a token the relay refuses, and nothing is charged or sent upstream.
  const anonymous = await request.post('/mj/submit/imagine', { data: { prompt: 'no token' } });
  expect(anonymous.status()).toBe(401);

  ids.drawOk = await imagine(request, 'a red fox in the snow');
  ids.drawFail = await imagine(request, 'a forbidden picture');
  ids.musicOk = await music(request, 'E2E Sunrise');
  ids.musicFail = await music(request, 'E2E Sunset');

  // What reached the fakes: the client's fields, the route's path.
  expect(mj.tasks.size).toBe(2);
  expect(mj.tasks.get(ids.drawOk)?.submitted).toMatchObject({ prompt: 'a red fox in the snow' });
  expect(mj.tasks.get(ids.drawOk)?.submitPath).toBe('/mj/submit/imagine');
  expect(mj.tasks.get(ids.drawFail)?.submitted).toMatchObject({ prompt: 'a forbidden picture' });
  expect(suno.tasks.size).toBe(2);
  expect(suno.tasks.get(ids.musicOk)?.submitted).toMatchObject({ title: 'E2E Sunrise', tags: 'e2e, pop', mv: 'chirp-v3-0' });
  expect(suno.tasks.get(ids.musicFail)?.submitted).toMatchObject({ title: 'E2E Sunset' });
  // The channels' own credentials went upstream, never the user's token.
  expect(mj.requests.filter((r) => r.path === '/mj/submit/imagine').map((r) => r.headers['mj-api-secret'])).toEqual([mj.secret, mj.secret]);
  expect(suno.requests.filter((r) => r.path === '/suno/submit/MUSIC').map((r) => r.headers.authorization)).toEqual([`Bearer ${suno.key}`, `Bearer ${suno.key}`]);

  // Four submissions, four prices, from the user and from the token.
  expect(await balances(page)).toEqual({ quota: before.quota - 4 * PRICE, used: before.used + 4 * PRICE, token: before.token - 4 * PRICE, tokenUsed: before.tokenUsed + 4 * PRICE });
  const consumed = await ownLogs(page, 2);
  expect(consumed.filter((l) => l.model_name === 'mj_imagine').map((l) => l.quota)).toEqual([PRICE, PRICE]);
  expect(consumed.filter((l) => l.model_name === 'suno_music').map((l) => l.quota)).toEqual([PRICE, PRICE]);
  for (const id of [ids.drawOk, ids.drawFail]) expect(consumed.some((l) => l.content.endsWith(`操作 IMAGINE，ID ${id}`))).toBe(true);

  // Upstream: one of each finishes, one fails.
  mj.succeed(ids.drawOk);
  mj.fail(ids.drawFail, DRAW_FAIL_REASON);
  suno.succeed(ids.musicOk);
  suno.fail(ids.musicFail, MUSIC_FAIL_REASON);

  // The proxy's callback for the failed drawing, delivered twice: refunded once.
  for (let i = 0; i < 2; i++) {
    const notified = await request.post('/mj/notify', { headers: mjHeaders(), data: mj.taskJson(ids.drawFail) });
    expect(notified.status()).toBe(200);
    expect(await notified.json()).toEqual({ code: 1, description: '成功', result: ids.drawFail });
  }
  expect((await balances(page)).quota).toBe(before.quota - 3 * PRICE);
  expect(await drawing(request, ids.drawFail)).toMatchObject({ status: 'FAILURE', progress: '100%', failReason: DRAW_FAIL_REASON });

  // The server's own poller brings the rest to their end.
  await expect
    .poll(async () => {
      const task = await drawing(request, ids.drawOk);
      return [task.status, task.progress, task.imageUrl];
    }, POLLER_WAIT)
    .toEqual(['SUCCESS', '100%', expect.stringMatching(new RegExp(`/mj/image/${ids.drawOk}$`))]);
  await expect
    .poll(async () => {
      const [ok, failed] = [await musicTask(request, ids.musicOk), await musicTask(request, ids.musicFail)];
      return [ok.status, ok.progress, failed.status, failed.progress, failed.fail_reason];
    }, POLLER_WAIT)
    .toEqual(['SUCCESS', '100%', 'FAILURE', '100%', MUSIC_FAIL_REASON]);
  const clips = (await musicTask(request, ids.musicOk)).data as { id: string; audio_url: string }[];
  expect(clips.map((c) => c.id)).toEqual(suno.tasks.get(ids.musicOk)?.clipIds);

  // Charged for the two that finished; the two failures back to the unit. used_quota keeps
  // what was consumed (the refund is its own system log).
  const after = { quota: before.quota - 2 * PRICE, used: before.used + 4 * PRICE, token: before.token - 2 * PRICE, tokenUsed: before.tokenUsed + 4 * PRICE };
  expect(await balances(page)).toEqual(after);
  const refunds = (await ownLogs(page, 4)).map((l) => l.content).sort();
  expect(refunds).toEqual([
    expect.stringMatching(new RegExp(`^异步任务执行失败 ${ids.musicFail}，补偿 (＄0\\.100000 额度|${PRICE} 点额度)$`)),
    expect.stringMatching(new RegExp(`^构图失败 ${ids.drawFail}，补偿 (＄0\\.100000 额度|${PRICE} 点额度)$`)),
  ]);

  // The drawing's image through our proxy (no token: the id is the secret), as the upstream sent it.
  const image = await request.get(`/mj/image/${ids.drawOk}`);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  expect(Buffer.compare(await image.body(), TINY_PNG)).toBe(0);
  // The clip's audio straight from the upstream's address.
  const audio = await request.get(clips[0].audio_url);
  expect(audio.headers()['content-type']).toBe('audio/mpeg');
  expect((await audio.body()).length).toBe(TINY_MP3.length);

  // Another poller round later nothing has moved again (no second refund, no second charge).
  await page.waitForTimeout(16_000);
  expect(await balances(page)).toEqual(after);
  expect(await ownLogs(page, 4)).toHaveLength(2);
});

const columnHeader = (page: Page, name: string) => page.locator('.ant-table-thead th').filter({ hasText: new RegExp(`^${name}$`) });
const progressOf = (row: Locator) => row.getByRole('progressbar');

async function checkDrawingRows(page: Page, admin: boolean): Promise<void> {
  await page.goto('/midjourney');
  const ok = rowWith(page, ids.drawOk);
  const failed = rowWith(page, ids.drawFail);
  await expect(ok).toHaveCount(1);
  await expect(failed).toHaveCount(1);
  await expect(ok.getByText('成功', { exact: true })).toBeVisible();
  await expect(failed.getByText('失败', { exact: true })).toBeVisible();
  for (const row of [ok, failed]) {
    await expect(row.getByText('绘图', { exact: true })).toBeVisible();
    await expect(progressOf(row)).toHaveAttribute('aria-valuenow', '100');
  }
  // A failure ends at 100% too, but not as a green success.
  await expect(progressOf(ok)).toHaveClass(/ant-progress-status-success/);
  await expect(progressOf(failed)).toHaveClass(/ant-progress-status-exception/);
  // The image loads through /mj/image/<id> (MjForwardUrlEnabled), the failure has none.
  const cell = ok.getByTestId('image-cell');
  await expect(cell).toBeVisible();
  await expect.poll(() => naturalWidth(cell)).toBeGreaterThan(0);
  const src = await cell.evaluate((el) => (el instanceof HTMLImageElement ? el : el.querySelector('img'))?.getAttribute('src') ?? '');
  expect(src).toMatch(new RegExp(`/mj/image/${ids.drawOk}$`));
  await expect(failed.getByTestId('image-cell')).toHaveCount(0);
  // The failure reason, in the row and in its dialog; the success has none.
  await expect(ok.getByTestId('dialog-fail_reason')).toHaveCount(0);
  await expect(ok).toContainText('无');
  await expect(failed.getByTestId('dialog-fail_reason')).toHaveText(DRAW_FAIL_REASON);
  await failed.getByTestId('dialog-fail_reason').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText(DRAW_FAIL_REASON);
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);

  await expect(columnHeader(page, '任务状态')).toHaveCount(1);
  await expect(columnHeader(page, '渠道')).toHaveCount(admin ? 1 : 0);
  await expect(columnHeader(page, '提交结果')).toHaveCount(admin ? 1 : 0);
  await expect(page.getByPlaceholder('渠道 ID')).toHaveCount(admin ? 1 : 0);
  if (admin) {
    await expect(ok.locator('.ant-tag').filter({ hasText: new RegExp(`^${mjChannel}$`) })).toHaveCount(1);
    await expect(failed.locator('.ant-tag').filter({ hasText: new RegExp(`^${mjChannel}$`) })).toHaveCount(1);
  }
}

async function checkMusicRows(page: Page, admin: boolean): Promise<void> {
  await page.goto('/task');
  const ok = rowWith(page, ids.musicOk);
  const failed = rowWith(page, ids.musicFail);
  await expect(ok).toHaveCount(1);
  await expect(failed).toHaveCount(1);
  await expect(ok.getByText('成功', { exact: true })).toBeVisible();
  await expect(failed.getByText('失败', { exact: true })).toBeVisible();
  for (const row of [ok, failed]) {
    await expect(row.getByText('Suno', { exact: true })).toBeVisible();
    await expect(row.getByText('生成音乐', { exact: true })).toBeVisible();
    await expect(progressOf(row)).toHaveAttribute('aria-valuenow', '100');
  }
  // A failure ends at 100% too, but not as a green success.
  await expect(progressOf(ok)).toHaveClass(/ant-progress-status-success/);
  await expect(progressOf(failed)).toHaveClass(/ant-progress-status-exception/);
  // Both clips with a player and an open link on the upstream's http(s) address.
  const clipIds = suno.tasks.get(ids.musicOk)?.clipIds ?? [];
  expect(clipIds).toHaveLength(2);
  await expect(ok.getByTestId('task-result-clip')).toHaveCount(2);
  const audios = ok.getByTestId('task-result-audio');
  const links = ok.getByTestId('task-result-open');
  for (const [i, clipId] of clipIds.entries()) {
    await expect(audios.nth(i)).toHaveAttribute('src', `${suno.url}/audio/${clipId}.mp3`);
    await expect(audios.nth(i)).toHaveAttribute('src', /^https?:\/\//);
    await expect(links.nth(i)).toHaveAttribute('href', `${suno.url}/audio/${clipId}.mp3`);
    await expect(links.nth(i)).toHaveAttribute('target', '_blank');
  }
  await expect(ok.getByTestId('task-result-clip').first()).toContainText('E2E Sunrise');
  await expect(ok.getByTestId('task-result-clip').first()).toContainText('2:01');
  // The failure: no result, its reason.
  await expect(failed.getByTestId('task-result')).toHaveCount(0);
  await expect(failed.getByTestId('dialog-fail_reason')).toHaveText(MUSIC_FAIL_REASON);
  await expect(ok.getByTestId('dialog-fail_reason')).toHaveCount(0);

  await expect(columnHeader(page, '任务状态')).toHaveCount(1);
  await expect(columnHeader(page, '渠道')).toHaveCount(admin ? 1 : 0);
  await expect(page.getByPlaceholder('渠道 ID')).toHaveCount(admin ? 1 : 0);
  if (admin) {
    await expect(ok.locator('.ant-tag').filter({ hasText: new RegExp(`^${sunoChannel}$`) })).toHaveCount(1);
    await expect(failed.locator('.ant-tag').filter({ hasText: new RegExp(`^${sunoChannel}$`) })).toHaveCount(1);
  }
}

/** Searches the list by channel id (administrators); answers the rows shown. */
async function filterByChannel(page: Page, channel: number): Promise<Locator> {
  await page.getByPlaceholder('渠道 ID').fill(String(channel));
  await page
    .getByTestId('search-form')
    .getByRole('button', { name: /查\s?询/ })
    .click();
  await page.waitForLoadState('networkidle');
  return page.locator('.ant-table-row');
}

test('root sees both drawing tasks with their channel, image and failure reason', async ({ page }) => {
  await signInRoot(page);
  await checkDrawingRows(page, true);
  await expect(await filterByChannel(page, mjChannel)).toHaveCount(2);
  await expect(rowWith(page, ids.drawOk)).toHaveCount(1);
  await expect(rowWith(page, ids.drawFail)).toHaveCount(1);
  await expect(await filterByChannel(page, sunoChannel)).toHaveCount(0);
  await settle(page);
});

test('root sees both music tasks with their channel, clips and failure reason', async ({ page }) => {
  await signInRoot(page);
  await checkMusicRows(page, true);
  await expect(await filterByChannel(page, sunoChannel)).toHaveCount(2);
  await expect(await filterByChannel(page, mjChannel)).toHaveCount(0);
  // The task id opens the whole record.
  await page.getByPlaceholder('渠道 ID').fill('');
  await page
    .getByTestId('search-form')
    .getByRole('button', { name: /查\s?询/ })
    .click();
  await rowWith(page, ids.musicOk).getByTestId('dialog-task_id').click();
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toContainText(`"task_id": "${ids.musicOk}"`);
  await expect(dialog).toContainText(`"channel_id": ${sunoChannel}`);
  // The stored payload is shown as JSON, not as an escaped string.
  const firstClip = suno.tasks.get(ids.musicOk)?.clipIds[0] ?? '';
  await expect(dialog).toContainText(`"audio_url": "${suno.url}/audio/${firstClip}.mp3"`);
  await expect(dialog).toContainText('"input": "a short song called E2E Sunrise"');
  await settle(page);
  await shot(page, 'tasks-music-record-dialog');
  await dialog.getByRole('button', { name: '确定' }).click();
});

test('the user sees the same tasks without the channel column or filter', async ({ page }) => {
  await signIn(page, TASK_USER);
  await checkDrawingRows(page, false);
  await checkMusicRows(page, false);
  await rowWith(page, ids.musicOk).getByTestId('dialog-task_id').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText(`"task_id": "${ids.musicOk}"`);
  await expect(page.locator('.ant-modal-confirm')).not.toContainText('channel_id');
});

test('the task logs in both languages and themes, as root and as the user', async ({ page }) => {
  test.setTimeout(180_000);
  await signInRoot(page);
  await shotVariants(page, 'tasks-drawing-admin', '/midjourney', (p) => rowWith(p, ids.drawOk).getByTestId('image-cell'));
  await shotVariants(page, 'tasks-music-admin', '/task', (p) => rowWith(p, ids.musicOk).getByTestId('task-result'));
  // The right-hand columns (result, failure reason) of the wide tables, scrolled into view.
  for (const [name, path, ready] of [
    ['tasks-drawing-admin-scrolled', '/midjourney', 'image-cell'],
    ['tasks-music-admin-scrolled', '/task', 'task-result'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId(ready).first()).toBeVisible();
    await page.locator('.ant-table-content').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await shot(page, name);
  }
  await signIn(page, TASK_USER);
  await shotVariants(page, 'tasks-drawing-user', '/midjourney', (p) => rowWith(p, ids.drawOk).getByTestId('image-cell'));
  await shotVariants(page, 'tasks-music-user', '/task', (p) => rowWith(p, ids.musicOk).getByTestId('task-result'));
});
