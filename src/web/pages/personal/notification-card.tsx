/**
 * Notification settings: how quota warnings arrive (email, or an https webhook sent as POST
 * with the secret as a Bearer header) and below which quota; PUT /api/user/setting.
 */
import { AutoComplete, Button, Card, Form, Input, Radio } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { displayQuota, quotaView } from '../../crud/quota-format';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { isHttpsUrl, THRESHOLD_PRESETS, toNotificationForm, toSettingBody, type NotificationForm } from './notification-settings';
import type { SelfRecord } from '../../state/use-self';

export function NotificationCard({ self, onChanged }: { self: SelfRecord | undefined; onChanged: () => void }) {
  const { t } = useTranslation();
  const view = quotaView(usePublicStatus());
  const [form] = Form.useForm<NotificationForm>();
  const type = Form.useWatch('notify_type', form);
  const settingText = self?.setting ?? '';

  useEffect(() => {
    form.setFieldsValue(toNotificationForm(settingText));
  }, [form, settingText]);

  const [save, busy] = useAction(
    async (values: NotificationForm) => {
      await api.request('put', '/api/user/setting', { body: toSettingBody(values, settingText) });
      onChanged();
    },
    { success: t('personal.notify.saved'), error: (err) => `${t('personal.notify.failed')}: ${err.message}` },
  );

  const presets = THRESHOLD_PRESETS.map((q) => ({ value: String(q), label: `${q.toLocaleString('en-US')} (${displayQuota(q, { ...view, inCurrency: true })})` }));
  return (
    <Card title={t('personal.notify.title')} data-testid="notification-card">
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)} disabled={!self}>
        <Form.Item name="notify_type" label={t('personal.notify.type')}>
          <Radio.Group>
            <Radio value="email">{t('personal.notify.email')}</Radio>
            <Radio value="webhook">{t('personal.notify.webhook')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="quota_warning_threshold"
          label={t('personal.notify.threshold')}
          extra={t('personal.notify.thresholdHint')}
          getValueProps={(v: unknown) => ({ value: v === undefined || v === null ? '' : String(v) })}
          rules={[{ validator: async (_r, v) => (Number(v) > 0 ? undefined : Promise.reject(new Error(t('personal.notify.thresholdInvalid')))) }]}
        >
          <AutoComplete options={presets} data-testid="notify-threshold" />
        </Form.Item>
        {type === 'webhook' ? (
          <>
            <Form.Item
              name="webhook_url"
              label={t('personal.notify.webhookUrl')}
              extra={t('personal.notify.webhookHint')}
              rules={[{ validator: async (_r, v: string) => (isHttpsUrl(v ?? '') ? undefined : Promise.reject(new Error(t('personal.notify.httpsOnly')))) }]}
            >
              <Input placeholder="https://" />
            </Form.Item>
            <Form.Item name="webhook_secret" label={t('personal.notify.webhookSecret')} extra={t('personal.notify.secretHint')}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </>
        ) : (
          <Form.Item name="notification_email" label={t('personal.notify.notificationEmail')} extra={t('personal.notify.emailHint')}>
            <Input type="email" placeholder={self?.email || undefined} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" loading={busy} data-testid="notify-save">
          {t('personal.notify.save')}
        </Button>
      </Form>
    </Card>
  );
}
