/**
 * A user's notification settings (docs/users.md#notification-settings; webhooks are https only),
 * stored as JSON text in `users.setting`. Saving replaces the whole setting, so switching
 * the type drops the other type's fields.
 *
 * A webhook address must point at the public internet (issue #12): a literal loopback,
 * private, link-local (metadata) or otherwise non-public address, or a name resolving to one,
 * is refused when saved, unless the operator allows private targets
 * (PRIVATE_WEBHOOK_OPTION). Delivery checks again after its own DNS lookup (webhook.ts), so
 * a name that changes its answer later gains nothing; a name that does not resolve now is
 * left to that check.
 */
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { announceChange } from '../../plumbing/change-events';
import { classifyHost, hasLiteralPrivateHost } from '../../plumbing/public-address';
import { updateUser } from './user.repository';

/** The operator's switch (schemas/options/system-worker.json): webhooks may target private addresses. */
export const PRIVATE_WEBHOOK_OPTION = 'WebhookPrivateAddressEnabled';

export type NotifyType = 'email' | 'webhook';

/** What is stored; absent keys mean the defaults (email, option QuotaRemindThreshold). */
export interface UserSetting {
  notify_type?: NotifyType;
  quota_warning_threshold?: number;
  webhook_url?: string;
  webhook_secret?: string;
  notification_email?: string;
  accept_unset_model_ratio_model?: boolean;
}

export interface UserSettingInput {
  notify_type?: string;
  quota_warning_threshold?: number;
  webhook_url?: string;
  webhook_secret?: string;
  notification_email?: string;
  accept_unset_model_ratio_model?: boolean;
}

export const SETTING_MSG = {
  saved: '设置已更新',
  badType: '无效的预警类型',
  badThreshold: '预警阈值必须大于0',
  webhookMissing: 'Webhook地址不能为空',
  webhookInvalid: '无效的Webhook地址',
  emailInvalid: '无效的邮箱地址',
  webhookPrivate: 'Webhook地址不能指向本机或内网地址',
} as const;

/** Only absolute https addresses: the secret travels as a Bearer header and must not leak. */
export function isHttpsUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Checks the input in the reference's order and answers the setting to store. */
export function buildUserSetting(input: UserSettingInput): UserSetting {
  const type = input.notify_type;
  if (type !== 'email' && type !== 'webhook') throw new AppError(SETTING_MSG.badType);
  const threshold = input.quota_warning_threshold;
  if (threshold === undefined || !(threshold > 0)) throw new AppError(SETTING_MSG.badThreshold);
  const setting: UserSetting = {
    notify_type: type,
    quota_warning_threshold: threshold,
    accept_unset_model_ratio_model: input.accept_unset_model_ratio_model ?? false,
  };
  if (type === 'webhook') {
    const url = (input.webhook_url ?? '').trim();
    if (!url) throw new AppError(SETTING_MSG.webhookMissing);
    if (!isHttpsUrl(url)) throw new AppError(SETTING_MSG.webhookInvalid);
    setting.webhook_url = url;
    if (input.webhook_secret) setting.webhook_secret = input.webhook_secret;
  } else {
    const email = (input.notification_email ?? '').trim();
    if (email && !email.includes('@')) throw new AppError(SETTING_MSG.emailInvalid);
    if (email) setting.notification_email = email;
  }
  return setting;
}

/** Refuses a webhook address whose host is, or now resolves to, a non-public address. */
export async function assertPublicWebhook(text: string): Promise<void> {
  const url = new URL(text);
  if (hasLiteralPrivateHost(url) || (await classifyHost(url.hostname)) === 'private') throw new AppError(SETTING_MSG.webhookPrivate);
}

export async function saveUserSetting(ctx: AppContext, userId: number, input: UserSettingInput): Promise<void> {
  const setting = buildUserSetting(input);
  if (setting.webhook_url && !ctx.options.bool(PRIVATE_WEBHOOK_OPTION)) await assertPublicWebhook(setting.webhook_url);
  await updateUser(ctx.db, userId, { setting: JSON.stringify(setting) });
  announceChange(ctx, 'users', [userId]);
}
