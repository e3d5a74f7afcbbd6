/**
 * Sends a notice to one user over their chosen channel, at most `throttle.limit` times per
 * `throttle.seconds` per user and notice type. The throttle is the shared sliding log of
 * `ctx.rateLimiter` (Redis when configured, so all nodes count together; memory otherwise).
 * A user without an address for their channel is skipped without using up the allowance.
 */
import type { AppContext } from '../../context';
import { sendMail } from '../mail/mailer';
import { PRIVATE_WEBHOOK_OPTION } from '../users/user-setting.service';
import { fillNotice, type Notice, type NoticeLogger, type NoticeType } from './notice';
import type { Recipient } from './recipient';
import { postWebhook } from './webhook';

export interface Throttle {
  limit: number;
  seconds: number;
}

export type DeliveryResult = 'sent' | 'throttled' | 'no-address' | 'failed';

export type DeliveryContext = Pick<AppContext, 'config' | 'options' | 'rateLimiter'>;

/** The throttle's counter of one user and notice type. */
export function throttleKey(userId: number, type: NoticeType): string {
  return `NOTIFY:${type}:${userId}`;
}

/** Delivers `notice`; never throws (failures are logged and answered as `failed`). */
export async function deliverNotice(ctx: DeliveryContext, recipient: Recipient, notice: Notice, throttle: Throttle, log: NoticeLogger): Promise<DeliveryResult> {
  const { setting } = recipient;
  const email = setting.notificationEmail || recipient.email;
  if (setting.notifyType === 'webhook' ? !setting.webhookUrl : !email) return 'no-address';
  try {
    if (!(await ctx.rateLimiter.hit(throttleKey(recipient.id, notice.type), throttle.limit, throttle.seconds))) return 'throttled';
    if (setting.notifyType === 'webhook') {
      const allowPrivate = ctx.options.bool(PRIVATE_WEBHOOK_OPTION);
      await postWebhook(ctx.config, { url: setting.webhookUrl, secret: setting.webhookSecret }, notice, { allowPrivate });
    } else {
      await sendMail(ctx.options, { to: email, subject: notice.title, html: fillNotice(notice, true) });
    }
    return 'sent';
  } catch (err) {
    log.warn({ userId: recipient.id, type: notice.type, via: setting.notifyType, reason: err instanceof Error ? err.message : String(err) }, 'notification not delivered');
    return 'failed';
  }
}
