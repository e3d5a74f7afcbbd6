/**
 * /reset (docs/console.md#account-pages): asks for the reset mail. The button locks for 30 seconds after a
 * request, with a countdown; the bot check when on.
 */
import { MailOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAction } from '../../components/use-action';
import { api } from '../../state/wire';
import { AccountCard } from './account-card';
import { useCountdown } from './use-countdown';
import { useTurnstile } from './use-turnstile';

export function ResetRequestPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const turnstile = useTurnstile();
  const countdown = useCountdown();
  const [request, busy] = useAction((email: string) => api.request('get', '/api/reset_password', { query: { email, turnstile: turnstile.token } }), { success: t('auth.reset.sent') });

  const submit = async ({ email }: { email?: string }) => {
    if (!email?.trim()) {
      void message.warning(t('auth.register.emailMissing'));
      return;
    }
    if (!turnstile.ready()) return;
    countdown.start();
    await request(email.trim());
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
      <div className="sy-account-links">
        <Typography.Text type="secondary">
          {t('auth.register.haveAccount')} <Link to="/login">{t('auth.register.loginLink')}</Link>
        </Typography.Text>
      </div>
    </AccountCard>
  );
}
