/**
 * The quota warning after a billed relay request (docs/notifications.md#quota-warnings):
 * when the user's quota at the start of the request minus what it was
 * charged is below their threshold (their `quota_warning_threshold`, else 500000, the
 * console's default), they are told by email or webhook, at most once per 2 hours.
 *
 * Cheap on the hot path: without a warning due it does nothing; with one due but already
 * sent in the window it only asks the throttle; only a warning to send reads the user row.
 */
import type { AppContext } from '../../context';
import { formatQuota } from '../../../shared/quota';
import { quotaDisplay } from '../options/quota-display';
import { deliverNotice, throttleKey, type DeliveryResult, type Throttle } from './deliver';
import { NOTICE_TYPE, type Notice, type NoticeLogger } from './notice';
import { loadRecipient, readNotifySetting } from './recipient';

export const QUOTA_WARNING_TITLE = '您的额度即将用尽';
export const QUOTA_WARNING_TEMPLATE = "{{value}}，当前剩余额度为 {{value}}，为了不影响您的使用，请及时充值。<br/>充值链接：<a href='{{value}}'>{{value}}</a>";
/** The threshold when the user saved none (the console's default). */
export const DEFAULT_QUOTA_WARNING_THRESHOLD = 500_000;
/** At most one quota warning per user per 2 hours (docs/notifications.md#quota-warnings). */
export const QUOTA_WARNING_THROTTLE: Throttle = { limit: 1, seconds: 2 * 60 * 60 };

export interface SettledCharge {
  userId: number;
  /** The user's quota when the request started. */
  quotaBefore: number;
  /** The final charge of the request (actual, reservation already included). */
  charge: number;
  /** The user's setting as the relay has it cached (JSON text or parsed); read fresh when omitted. */
  setting?: unknown;
}

function topUpLink(ctx: AppContext): string {
  const address = ctx.options.get('ServerAddress').replace(/\/+$/, '') || `http://localhost:${ctx.config.port}`;
  return `${address}/topup`;
}

export function quotaWarningNotice(ctx: AppContext, quota: number): Notice {
  const link = topUpLink(ctx);
  return {
    type: NOTICE_TYPE.quotaExceed,
    title: QUOTA_WARNING_TITLE,
    content: QUOTA_WARNING_TEMPLATE,
    values: [QUOTA_WARNING_TITLE, formatQuota(quota, quotaDisplay(ctx)), link, link],
  };
}

/** Whether a charge leaves the user below their threshold. */
export function quotaWarningDue(charge: SettledCharge, threshold: number | undefined): boolean {
  if (charge.charge === 0) return false;
  return charge.quotaBefore - charge.charge < (threshold ?? DEFAULT_QUOTA_WARNING_THRESHOLD);
}

/**
 * The relay's post-settlement hook. Answers what happened (`undefined`: no warning due);
 * never throws, so callers may fire and forget it.
 */
export async function warnIfQuotaLow(ctx: AppContext, charge: SettledCharge, log: NoticeLogger): Promise<DeliveryResult | undefined> {
  try {
    if (charge.setting !== undefined && !quotaWarningDue(charge, readNotifySetting(charge.setting).quotaWarningThreshold)) return undefined;
    const key = throttleKey(charge.userId, NOTICE_TYPE.quotaExceed);
    if (!(await ctx.rateLimiter.allows(key, QUOTA_WARNING_THROTTLE.limit, QUOTA_WARNING_THROTTLE.seconds))) return 'throttled';
    const recipient = await loadRecipient(ctx.db, charge.userId);
    if (!recipient || !quotaWarningDue(charge, recipient.setting.quotaWarningThreshold)) return undefined;
    return await deliverNotice(ctx, recipient, quotaWarningNotice(ctx, charge.quotaBefore), QUOTA_WARNING_THROTTLE, log);
  } catch (err) {
    log.warn({ userId: charge.userId, reason: err instanceof Error ? err.message : String(err) }, 'quota warning failed');
    return 'failed';
  }
}
