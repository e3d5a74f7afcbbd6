/**
 * Shared steps of the gateway browser tests: signing in, setting things up through the
 * API with the browser's session, fake upstreams, and screenshots of one screen in both
 * languages and both themes.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { login, ROOT, shot } from './helpers';

export const USER = { username: 'gwuser', password: 'gwuser-pass1' };

/** Signs root in, dismissing the default-password warning when it shows. */
export async function signInRoot(page: Page): Promise<void> {
  await login(page, ROOT.username, ROOT.password);
  const ok = page.locator('.ant-modal-confirm').getByRole('button');
  if (await ok.isVisible().catch(() => false)) await ok.click();
}

export async function signIn(page: Page, user: { username: string; password: string }): Promise<void> {
  await login(page, user.username, user.password);
}

/** An /api call with the page's session as the signed-in user `userId`; answers the envelope. */
export async function callApi<T = unknown>(page: Page, method: 'get' | 'post' | 'put' | 'delete', path: string, data?: unknown, userId = 1): Promise<{ success: boolean; message: string; data: T }> {
  const reply = await page.request.fetch(path, {
    method: method.toUpperCase(),
    data: data === undefined ? undefined : JSON.stringify(data),
    headers: { 'New-Api-User': String(userId), 'Content-Type': 'application/json' },
  });
  return (await reply.json()) as { success: boolean; message: string; data: T };
}

/** Creates the ordinary test user once (as root); answers its id. */
export async function ensureUser(page: Page, user = USER): Promise<number> {
  const found = await callApi<{ items: { id: number; username: string }[] }>(page, 'get', `/api/user/search?keyword=${user.username}`);
  const existing = found.data.items.find((u) => u.username === user.username);
  if (existing) return existing.id;
  expect((await callApi(page, 'post', '/api/user/', { username: user.username, password: user.password, display_name: user.username })).success).toBe(true);
  return ensureUser(page, user);
}

/** A channel (as root) serving `models` from `baseUrl`; answers its id. */
export async function createChannel(page: Page, name: string, baseUrl: string, models: string[], key = 'sk-fake-good'): Promise<number> {
  const reply = await callApi<{ ids: number[] }>(page, 'post', '/api/channel/', { name, type: 1, key, base_url: baseUrl, models: models.join(','), groups: ['default'] });
  expect(reply.success, reply.message).toBe(true);
  return reply.data.ids[0];
}

/**
 * Deletes (as root) the channels whose name starts with `prefix`: the browser specs share one
 * server, so a spec takes away the channels it made (another spec's playground or model list
 * would pick them up).
 */
export async function deleteChannelsNamed(page: Page, prefix: string): Promise<void> {
  const found = await callApi<{ items: { id: number; name: string }[] }>(page, 'get', `/api/channel/search?keyword=${encodeURIComponent(prefix)}&p=0&page_size=100`);
  for (const channel of found.data.items.filter((c) => c.name.startsWith(prefix))) {
    const reply = await callApi(page, 'delete', `/api/channel/${channel.id}`);
    expect(reply.success, reply.message).toBe(true);
  }
}

/** Deletes the signed-in user's tokens whose name starts with `prefix` (see deleteChannelsNamed). */
export async function deleteTokensNamed(page: Page, prefix: string, userId = 1): Promise<void> {
  const found = await callApi<{ items: { id: number; name: string }[] }>(page, 'get', `/api/token/search?keyword=${encodeURIComponent(prefix)}&p=0&page_size=100`, undefined, userId);
  for (const token of found.data.items.filter((t) => t.name.startsWith(prefix))) {
    const reply = await callApi(page, 'delete', `/api/token/${token.id}`, undefined, userId);
    expect(reply.success, reply.message).toBe(true);
  }
}

/** Sets option keys (as root). */
export async function setOptions(page: Page, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const reply = await callApi(page, 'put', '/api/option/', { key, value });
    expect(reply.success, `${key}: ${reply.message}`).toBe(true);
  }
}

const VARIANTS = [
  { lang: 'zh', theme: 'light' },
  { lang: 'zh', theme: 'dark' },
  { lang: 'en', theme: 'light' },
  { lang: 'en', theme: 'dark' },
] as const;

/**
 * Screenshots `path` in Chinese and English, light and dark, as `<name>-<lang>-<theme>`;
 * `ready` says what must be visible first. Leaves the page in Chinese and light.
 */
export async function shotVariants(page: Page, name: string, path: string, ready: (page: Page) => Locator): Promise<void> {
  for (const { lang, theme } of VARIANTS) {
    await page.evaluate(
      ([l, th]) => {
        localStorage.setItem('language', l);
        localStorage.setItem('theme-mode', th);
      },
      [lang, theme] as const,
    );
    await page.goto(path);
    await expect(ready(page).first()).toBeVisible();
    await shot(page, `${name}-${lang}-${theme}`);
  }
  await page.evaluate(() => {
    localStorage.setItem('language', 'zh');
    localStorage.setItem('theme-mode', 'light');
  });
}

/** The table row holding `text`. */
export function rowWith(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-table-row').filter({ hasText: text });
}
