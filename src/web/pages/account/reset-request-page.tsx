/**
 * /reset (docs/accounts.md#password-reset): asks for the reset mail. The button locks for 30 seconds after a
 * request, with a countdown; the bot check when on.
 */
import { MailOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { api } from '../../state/wire';
import { AccountCard } from './account-card';
import { HaveAccountLink } from './have-account-link';
import { useCountdown } from './use-countdown';
import { useTurnstile } from './use-turnstile';
import { useApp } from '../../state/feedback-app';

export function ResetRequestPage() {
  const { t } = useTranslation();
  const { message } = useApp();
  const turnstile = useTurnstile();
  const countdown = useCountdown();
  const [busy, setBusy] = useState(false);

  const submit = async ({ email }: { email?: string }) => {
    if (!email?.trim()) {
      void message.warning(t('auth.register.emailMissing'));
      return;
    }
    if (!turnstile.ready()) return;
    setBusy(true);
    countdown.start();
    try {
      await api.request('get', '/api/reset_password', { query: { email: email.trim(), turnstile: turnstile.token } });
      void message.success(t('auth.reset.sent'));
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AccountCard title={t('auth.reset.title')}>
      <Form layout="vertical" onFinish={(v) => void submit(v)} size="large">
        <Form.Item name="email">
          <Input prefix={<MailOutlined />} placeholder={t('auth.register.email')} type="email" autoComplete="email" data-testid="reset-email" />
        </Form.Item>
        {turnstile.widget}
        <Button type="primary" htmlType="submit" block loading={busy} disabled={countdown.remaining > 0} data-testid="reset-submit">
          {countdown.remaining > 0 ? t('auth.reset.retryIn', { seconds: countdown.remaining }) : t('auth.reset.submit')}
        </Button>
      </Form>
      <HaveAccountLink />
    </AccountCard>
  );
}
