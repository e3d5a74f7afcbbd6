/**
 * /login (docs/console.md#account-pages): username or email and password; the expired notice; a remembered
 * `aff`; third-party buttons for enabled providers; the bot check when on.
 *
 * A plain form laid out as antd's Form lays out label-less items (`.sy-form-item`): with no
 * rules to check, antd's Form would only add its field store and validator to the first
 * page most visitors load.
 */
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, App, Button, Input, Space, Typography } from 'antd';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { login } from '../../auth-provider';
import { useAction } from '../../components/use-action';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { AccountCard } from './account-card';
import { useRememberedAff } from './remember-aff';
import { ThirdPartyLogin } from './third-party-login';
import { useFinishLogin } from './use-finish-login';
import { useTurnstile } from './use-turnstile';

interface LoginValues {
  username?: string;
  password?: string;
}

export function LoginPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const location = useLocation();
  const status = usePublicStatus();
  const aff = useRememberedAff();
  const turnstile = useTurnstile();
  const finish = useFinishLogin();
  const from = (location.state as { from?: string } | null)?.from;
  const [signIn, busy] = useAction(async (username: string, password: string) => {
    const user = await login(api, { username, password, turnstile: turnstile.token });
    finish(user, from && from !== '/login' ? from : undefined);
  });

  const submit = async ({ username, password }: LoginValues) => {
    if (!username?.trim() || !password) {
      void message.error(t('auth.login.missing'));
      return;
    }
    if (!turnstile.ready()) return;
    await signIn(username.trim(), password);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    void submit({ username: String(fields.get('username') ?? ''), password: String(fields.get('password') ?? '') });
  };

  return (
    <AccountCard title={t('auth.login.title')}>
      {params.get('expired') === 'true' && <Alert type="warning" showIcon message={t('errors.expired')} style={{ marginBottom: 16 }} data-testid="expired-notice" />}
      <form onSubmit={onSubmit}>
        <div className="sy-form-item">
          <Input
            id="username"
            name="username"
            size="large"
            prefix={<UserOutlined />}
            placeholder={t('auth.login.username')}
            autoComplete="username"
            data-testid="login-username"
          />
        </div>
        <div className="sy-form-item">
          <Input.Password
            id="password"
            name="password"
            size="large"
            prefix={<LockOutlined />}
            placeholder={t('auth.login.password')}
            autoComplete="current-password"
            data-testid="login-password"
          />
        </div>
        {turnstile.widget}
        <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
      </form>
      <Space className="sy-account-links" wrap>
        <Typography.Text type="secondary">
          {t('auth.login.forgot')} <Link to="/reset">{t('auth.login.resetLink')}</Link>
        </Typography.Text>
        {!status.self_use_mode_enabled && (
          <Typography.Text type="secondary">
            {t('auth.login.noAccount')} <Link to="/register">{t('auth.login.registerLink')}</Link>
          </Typography.Text>
        )}
      </Space>
      <ThirdPartyLogin aff={aff} />
    </AccountCard>
  );
}
