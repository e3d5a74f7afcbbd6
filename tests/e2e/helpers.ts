/** Shared steps of the browser tests. */
import { expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = { username: 'root', password: '123456' };
const SHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** Saves a full-page screenshot under tests/e2e/screenshots/<name>.png for review. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.waitForLoadState('networkidle');
  await settle(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Saves a screenshot of the window with `target` scrolled to its middle (inside drawers and long pages). */
export async function viewShot(page: Page, target: Locator, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await settle(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Waits for finite animations (drawers, modals, toasts sliding in) to finish. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** Signs in through the login form and waits to leave /login. */
export async function login(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Starts the next page load with a clean local store (language, theme, user, choices). */
export async function freshStorage(page: Page): Promise<void> {
  await page.goto('/about');
  await page.evaluate(() => localStorage.clear());
}

/** The toast text antd shows for a message. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}
