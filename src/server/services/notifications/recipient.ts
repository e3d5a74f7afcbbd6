/**
 * Who receives a notice and how, read from the user's notification setting
 * (docs/notifications.md#delivery): `notify_type` email (to `notification_email`, else the account email) or
 * webhook (`webhook_url`, optional `webhook_secret`). An empty setting means email.
 */
import { ROLE_ROOT } from '../../../shared/roles';
import type { Executor } from '../../db/executor';

export interface NotifySetting {
  notifyType: 'email' | 'webhook';
  /** The user's own warning threshold, when they saved one (> 0). */
  quotaWarningThreshold: number | undefined;
  webhookUrl: string;
  webhookSecret: string;
  notificationEmail: string;
}

export interface Recipient {
  id: number;
  /** The account email ('' when none). */
  email: string;
  setting: NotifySetting;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Narrows a stored setting (JSON text, or already parsed) to what notifications use. */
export function readNotifySetting(raw: unknown): NotifySetting {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw || '{}');
    } catch {
      value = {};
    }
  }
  const s = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const threshold = typeof s.quota_warning_threshold === 'number' && s.quota_warning_threshold > 0 ? s.quota_warning_threshold : undefined;
  return {
    notifyType: s.notify_type === 'webhook' ? 'webhook' : 'email',
    quotaWarningThreshold: threshold,
    webhookUrl: text(s.webhook_url),
    // Secrets are used as given: trimming would change the signature.
    webhookSecret: typeof s.webhook_secret === 'string' ? s.webhook_secret : '',
    notificationEmail: text(s.notification_email),
  };
}

/** A user as a recipient, or undefined when the account is gone. */
export async function loadRecipient(db: Executor, userId: number): Promise<Recipient | undefined> {
  const row = await db.selectFrom('users').select(['id', 'email', 'setting']).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  return row ? { id: row.id, email: row.email ?? '', setting: readNotifySetting(row.setting) } : undefined;
}

/** The first root account (the one channel notices go to). */
export async function loadRootRecipient(db: Executor): Promise<Recipient | undefined> {
  const row = await db.selectFrom('users').select(['id', 'email', 'setting']).where('role', '>=', ROLE_ROOT).where('deleted_at', 'is', null).orderBy('id').executeTakeFirst();
  return row ? { id: row.id, email: row.email ?? '', setting: readNotifySetting(row.setting) } : undefined;
}
