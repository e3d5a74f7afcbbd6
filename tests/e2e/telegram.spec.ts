/**
 * Telegram's login widget in the browser: binding it on /personal, then signing in with it on
 * /login. Telegram's script (telegram.org/js/telegram-widget.js, allowed by the console's CSP)
 * cannot be fetched here, so the page's request for it is answered with a stand-in that does
 * what the widget does for the page: it reads the script tag's data-telegram-login and
 * data-onauth, shows a button, and on a click calls the page's callback with the user's fields
 * Telegram signs (HMAC-SHA256 keyed with SHA-256 of the bot token, as in Telegram's docs). The
 * server checks that signature; a wrong one is refused with its own message.
 */
import { expect, test, type Page } from '@playwright/test';
import { createHash, createHmac } from 'node:crypto';
import { freshStorage, login, toast, viewShot } from './helpers';
import { callApi, ensureUser, setOptions, signInRoot } from './gateway-helpers';

const BOT = { name: 'switchyard_e2e_bot', token: '7000000001:e2e-telegram-bot-token' };
const TG_USER = { username: 'tguser', password: 'tguser-pass1' };
const TELEGRAM_ID = '424242424';

/** The fields Telegram's widget hands the page, signed with the bot token. */
function signedFields(token: string, fields: Record<string, string>): Record<string, string> {
  const check = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(token).digest()).update(check).digest('hex');
  return { ...fields, hash };
}

function telegramUser(token = BOT.token): Record<string, string> {
  return signedFields(token, { id: TELEGRAM_ID, first_name: 'Tele', username: 'tele_e2e', auth_date: String(Math.floor(Date.now() / 1000)) });
}

/** Answers the page's request for Telegram's script with the stand-in, which hands over `user`. */
async function standInWidget(page: Page, user: Record<string, string>): Promise<void> {
  await page.unroute('https://telegram.org/js/telegram-widget.js*');
  await page.route('https://telegram.org/js/telegram-widget.js*', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `(() => {
        const tag = document.currentScript;
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.testid = 'telegram-widget';
        button.textContent = 'Log in as @' + tag.dataset.telegramLogin;
        // data-onauth is "<callback>(user)": the widget calls that global with the user's fields.
        const callback = tag.dataset.onauth.slice(0, tag.dataset.onauth.indexOf('('));
        button.onclick = () => window[callback](${JSON.stringify(user)});
        tag.after(button);
      })();`,
    }),
  );
}

test.afterAll(async ({ browser }) => {
  // Other specs share the server: Telegram off again.
  const page = await browser.newPage();
  await signInRoot(page);
  await setOptions(page, { TelegramOAuthEnabled: 'false' });
  await page.close();
});

test('Telegram: bound on /personal, then signs in on /login; a wrong signature is refused', async ({ page }) => {
  await signInRoot(page);
  await setOptions(page, { TelegramBotToken: BOT.token, TelegramBotName: BOT.name, TelegramOAuthEnabled: 'true' });
  await ensureUser(page, TG_USER);
  await page.context().clearCookies();
  await freshStorage(page);

  // Binding: the widget's fields go to /api/oauth/telegram/bind with the session.
  await standInWidget(page, telegramUser());
  await login(page, TG_USER.username, TG_USER.password);
  await page.goto('/personal');
  const row = page.getByTestId('binding-telegram');
  await expect(row).toContainText('未绑定');
  await row.getByTestId('telegram-widget').click();
  await expect(toast(page, '绑定成功！')).toBeVisible();
  await expect(row).toContainText(TELEGRAM_ID);
  await expect(row).toContainText('已绑定');
  await viewShot(page, page.getByTestId('bindings-card'), 'telegram-bound');
  const self = await callApi<{ id: number; telegram_id: string }>(page, 'get', '/api/user/self', undefined, await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number));
  expect(self.data.telegram_id).toBe(TELEGRAM_ID);

  // Signed out: fields signed with another bot's token are refused, and nobody is signed in.
  await page.context().clearCookies();
  await freshStorage(page);
  await standInWidget(page, telegramUser('7000000002:another-bot'));
  await page.goto('/login');
  await expect(page.getByTestId('telegram-widget')).toHaveText(`Log in as @${BOT.name}`);
  await viewShot(page, page.getByTestId('telegram-widget'), 'telegram-login');
  await page.getByTestId('telegram-widget').click();
  await expect(toast(page, '无效的请求')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  // Rightly signed: signed in as the bound account.
  await standInWidget(page, telegramUser());
  await page.goto('/login');
  await page.getByTestId('telegram-widget').click();
  await expect(page).not.toHaveURL(/\/login/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as { username?: string });
  expect(stored.username).toBe(TG_USER.username);
});
