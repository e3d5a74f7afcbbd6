import { describe, expect, it } from 'vitest';
import { isHttpsUrl, toNotificationForm, toSettingBody } from './notification-settings';

describe('notification settings', () => {
  it('defaults to email and a 500000 threshold when nothing is saved', () => {
    expect(toNotificationForm('')).toEqual({ notify_type: 'email', quota_warning_threshold: 500000, webhook_url: '', webhook_secret: '', notification_email: '' });
  });

  it('reads a saved webhook setting and keeps the unpriced-models choice it does not show', () => {
    const text = JSON.stringify({ notify_type: 'webhook', quota_warning_threshold: 100000, webhook_url: 'https://h.example/x', accept_unset_model_ratio_model: true });
    const form = toNotificationForm(text);
    expect(form).toMatchObject({ notify_type: 'webhook', quota_warning_threshold: 100000, webhook_url: 'https://h.example/x' });
    expect(toSettingBody({ ...form, webhook_secret: 's' }, text)).toEqual({
      notify_type: 'webhook',
      quota_warning_threshold: 100000,
      webhook_url: 'https://h.example/x',
      webhook_secret: 's',
      notification_email: '',
      accept_unset_model_ratio_model: true,
    });
  });

  it('accepts only https webhook addresses', () => {
    expect(isHttpsUrl('https://h.example/hook')).toBe(true);
    expect(isHttpsUrl('http://h.example/hook')).toBe(false);
    expect(isHttpsUrl('h.example')).toBe(false);
  });
});
