/**
 * /register (docs/accounts.md#registration): username, password (8 to 20), confirmation; email and code
 * when verification is on (resend locked 30 s); the bot check; `aff` sent as `aff_code`.
 */
import { LockOutlined, MailOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useNavigate } from 'react-router';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { AccountCard } from './account-card';
import { HaveAccountLink } from './have-account-link';
import { useRememberedAff } from './remember-aff';
import { useCountdown } from './use-countdown';
import { useTurnstile } from './use-turnstile';
import { useApp } from '../../state/feedback-app';

interface RegisterValues {
  username?: string;
  password?: string;
  password2?: string;
  email?: string;
  verification_code?: string;
}

export const MIN_PASSWORD_LENGTH = 8;

export function RegisterPage() {
  const { t } = useTranslation();
  const { message } = useApp();
  const navigate = useNavigate();
  const status = usePublicStatus();
  const aff = useRememberedAff();
  const turnstile = useTurnstile();
  const countdown = useCountdown();
  const [form] = Form.useForm<RegisterValues>();
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const verify = Boolean(status.email_verification);

  const sendCode = async () => {
    const email = form.getFieldValue('email')?.trim();
    if (!email) {
      void message.warning(t('auth.register.emailMissing'));
      return;
    }
    if (!turnstile.ready()) return;
    setSending(true);
    try {
      await api.request('get', '/api/verification', { query: { email, turnstile: turnstile.token } });
      void message.success(t('auth.register.codeSent'));
      countdown.start();
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: RegisterValues) => {
    const password = values.password ?? '';
    if (password.length < MIN_PASSWORD_LENGTH) {
      void message.info(t('auth.register.passwordTooShort'));
      return;
    }
    if (password !== values.password2) {
      void message.info(t('auth.register.passwordMismatch'));
      return;
    }
    if (!turnstile.ready()) return;
    setBusy(true);
    try {
      await api.request('post', '/api/user/register', {
        query: { turnstile: turnstile.token },
        body: {
          username: values.username?.trim(),
          password,
          password2: values.password2,
          email: verify ? (values.email?.trim() ?? '') : '',
          verification_code: verify ? (values.verification_code?.trim() ?? '') : '',
          aff_code: aff,
        },
      });
      void message.success(t('auth.register.success'));
      navigate('/login');
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const required = (key: string) => [{ required: true, message: t(key) }];
  return (
    <AccountCard title={t('auth.register.title')}>
      <Form<RegisterValues> form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false} size="large">
        <Form.Item name="username" rules={required('auth.register.usernameMissing')}>
          <Input prefix={<UserOutlined />} placeholder={t('auth.register.username')} autoComplete="username" maxLength={12} data-testid="register-username" />
        </Form.Item>
        <Form.Item name="password" rules={required('auth.register.passwordMissing')}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('auth.register.password')} autoComplete="new-password" maxLength={20} data-testid="register-password" />
        </Form.Item>
        <Form.Item name="password2" rules={required('auth.register.password2Missing')}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('auth.register.password2')} autoComplete="new-password" maxLength={20} data-testid="register-password2" />
        </Form.Item>
        {verify && (
          <>
            <Form.Item name="email" rules={required('auth.register.emailMissing')}>
              <Input
                prefix={<MailOutlined />}
                placeholder={t('auth.register.email')}
                type="email"
                autoComplete="email"
                suffix={
                  <Button type="link" size="small" loading={sending} disabled={countdown.remaining > 0} onClick={() => void sendCode()}>
                    {countdown.remaining > 0 ? t('auth.register.resendIn', { seconds: countdown.remaining }) : t('auth.register.sendCode')}
                  </Button>
                }
              />
            </Form.Item>
            <Form.Item name="verification_code" rules={required('auth.register.codeMissing')}>
              <Input prefix={<SafetyOutlined />} placeholder={t('auth.register.code')} autoComplete="one-time-code" />
            </Form.Item>
          </>
        )}
        {turnstile.widget}
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="register-submit">
          {t('auth.register.submit')}
        </Button>
      </Form>
      <HaveAccountLink />
    </AccountCard>
  );
}
