/**
 * The user's notification settings (the `setting` JSON of the user record) as the form edits
 * them, and back into the body of PUT /api/user/setting. Pure.
 */

export type NotifyType = 'email' | 'webhook';

export interface NotificationForm {
  notify_type: NotifyType;
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
}

/** Threshold presets in quota units (docs/console.md#personal-settings); the default when none is saved. */
export const THRESHOLD_PRESETS = [100000, 500000, 1000000, 5000000] as const;
export const DEFAULT_THRESHOLD = 500000;

interface StoredSetting extends Partial<NotificationForm> {
  accept_unset_model_ratio_model?: boolean;
}

function parse(text: string): StoredSetting {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as StoredSetting) : {};
  } catch {
    return {};
  }
}

export function toNotificationForm(settingText: string): NotificationForm {
  const s = parse(settingText);
  return {
    notify_type: s.notify_type === 'webhook' ? 'webhook' : 'email',
    quota_warning_threshold: Number(s.quota_warning_threshold) > 0 ? Number(s.quota_warning_threshold) : DEFAULT_THRESHOLD,
    webhook_url: s.webhook_url ?? '',
    webhook_secret: s.webhook_secret ?? '',
    notification_email: s.notification_email ?? '',
  };
}

/** The body to send: the form, plus what the form does not show kept as stored. */
export function toSettingBody(form: NotificationForm, settingText: string): Record<string, unknown> {
  return {
    notify_type: form.notify_type,
    quota_warning_threshold: Number(form.quota_warning_threshold),
    webhook_url: form.notify_type === 'webhook' ? form.webhook_url.trim() : '',
    webhook_secret: form.notify_type === 'webhook' ? form.webhook_secret : '',
    notification_email: form.notify_type === 'email' ? form.notification_email.trim() : '',
    accept_unset_model_ratio_model: parse(settingText).accept_unset_model_ratio_model === true,
  };
}

/** Webhooks only go to https addresses (the secret travels in a header). */
export function isHttpsUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}
