/**
 * Telegram Login Widget data: the widget redirects with the user's fields plus `hash`, an
 * HMAC-SHA256 over the sorted `key=value` lines keyed with SHA-256(bot token). Telegram
 * never creates accounts here; it only signs in to, or binds, an existing account.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors';
import type { Binding } from './oauth.types';

/** Signed data older than this is refused, so a leaked login link stops working. */
export const TELEGRAM_MAX_AGE_SECONDS = 24 * 3600;

const INVALID = '无效的请求';

export const telegramBinding: Binding = {
  column: 'telegram_id',
  disabledMessage: '管理员未开启通过 Telegram 登录以及注册',
  alreadyBoundMessage: '该 Telegram 账户已被绑定',
  enabled: (options) => options.bool('TelegramOAuthEnabled'),
};

/** A query value as Telegram sent it: the first one when a key repeats. */
function firstValue(value: unknown): string {
  if (Array.isArray(value)) return firstValue(value[0]);
  return typeof value === 'string' ? value : '';
}

/** Every parameter except `hash` as sorted `key=value` lines (extras such as `lang` included). */
export function telegramDataCheckString(params: Record<string, unknown>): string {
  return Object.keys(params)
    .filter((key) => key !== 'hash')
    .map((key) => `${key}=${firstValue(params[key])}`)
    .sort()
    .join('\n');
}

export function telegramHash(params: Record<string, unknown>, botToken: string): string {
  const secret = createHash('sha256').update(botToken, 'utf8').digest();
  return createHmac('sha256', secret).update(telegramDataCheckString(params), 'utf8').digest('hex');
}

/** Checks the signature and age of widget data; answers the Telegram user id. */
export function verifyTelegramLogin(params: Record<string, unknown>, botToken: string, nowSeconds: number): string {
  const given = Buffer.from(firstValue(params.hash), 'utf8');
  const expected = Buffer.from(telegramHash(params, botToken), 'utf8');
  if (!botToken || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError(INVALID);
  const authDate = Number(firstValue(params.auth_date));
  if (!Number.isInteger(authDate) || nowSeconds - authDate > TELEGRAM_MAX_AGE_SECONDS) throw new AppError(INVALID);
  const id = firstValue(params.id);
  if (!/^\d+$/.test(id)) throw new AppError(INVALID);
  return id;
}
