/**
 * /login (docs/console.md#account-pages): username or email and password; the expired notice; a remembered
 * `aff`; third-party buttons for enabled providers; the bot check when on.
 *
 * A plain form laid out as antd's Form lays out label-less items (`.sy-form-item`): with no
 * rules to check, antd's Form would only add its field store and validator to the first
 * page most visitors load.
 */
import { Button, Space } from 'antd';
// The two inputs alone: antd's Input module also brings TextArea, Search and OTP.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
// Directly, not through the icons' index: see the sign-in chunk in vite.config.ts.
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { InputRef } from 'antd/es/input';
import { useTranslation } from '../../use-translation';
import { Link, useLocation, useSearchParams } from 'react-router';
import { login } from '../../auth-provider';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { PlainText } from '../../components/plain-typography';
import { AccountCard } from './account-card';
import { useRememberedAff } from './remember-aff';
import { ThirdPartyLogin } from './third-party-login';
import { useFinishLogin } from './use-finish-login';
import { useTurnstile } from './use-turnstile';
import { useApp } from '../../state/feedback-app';
import { takeHeldSubmit } from '../../prerender/held-submit';
import { useHydrating } from '../../prerender/hydration';

// Shown only after a session expired.
const Alert = lazy(() => import('antd/es/alert'));

interface LoginValues {
  username?: string;
  password?: string;
}

/**
 * One item of the plain form: a large input whose id, name and test id are its field's.
 * antd's input sets the value it holds on every render; on the prerendered page a visitor
 * may have typed before hydration, so the field takes what the input shows once hydrated
 * (before the next render could clear it).
 */
function LoginField(props: { control: typeof Input | typeof Password; name: keyof LoginValues; icon: ReactNode; placeholder: string; autoComplete: string }) {
  const { control: Control, name, icon, placeholder, autoComplete } = props;
  const input = useRef<InputRef>(null);
  const [value, setValue] = useState('');
  useLayoutEffect(() => {
    const typed = input.current?.input?.value;
    if (typed) setValue(typed);
  }, []);
  return (
    <div className="sy-form-item">
      <Control
        ref={input}
        id={name}
        name={name}
        size="large"
        prefix={icon}
        placeholder={placeholder}
        autoComplete={autoComplete}
        data-testid={`login-${name}`}
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
    </div>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const { message } = useApp();
  const [params] = useSearchParams();
  const location = useLocation();
  const status = usePublicStatus();
  const aff = useRememberedAff();
  const turnstile = useTurnstile();
  const finish = useFinishLogin();
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from;
  const form = useRef<HTMLFormElement>(null);
  const hydrating = useHydrating();

  // The page was prerendered: a visitor who submitted before it hydrated is signed in now.
  useEffect(() => {
    const held = takeHeldSubmit();
    if (held && held === form.current) held.requestSubmit();
  }, []);

  const submit = async ({ username, password }: LoginValues) => {
    if (!username?.trim() || !password) {
      void message.error(t('auth.login.missing'));
      return;
    }
    if (!turnstile.ready()) return;
    setBusy(true);
    try {
      const user = await login(api, { username: username.trim(), password, turnstile: turnstile.token });
      finish(user, from && from !== '/login' ? from : undefined);
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    void submit({ username: String(fields.get('username') ?? ''), password: String(fields.get('password') ?? '') });
  };

  return (
    <AccountCard title={t('auth.login.title')}>
      {/* Not in the hydrating render: the prerendered page has no notice. */}
      {params.get('expired') === 'true' && !hydrating && (
        <Suspense fallback={null}>
          <Alert type="warning" showIcon message={t('errors.expired')} style={{ marginBottom: 16 }} data-testid="expired-notice" />
        </Suspense>
      )}
      <form ref={form} onSubmit={onSubmit}>
        <LoginField control={Input} name="username" icon={<UserOutlined />} placeholder={t('auth.login.username')} autoComplete="username" />
        <LoginField control={Password} name="password" icon={<LockOutlined />} placeholder={t('auth.login.password')} autoComplete="current-password" />
        {turnstile.widget}
        <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
      </form>
      <Space className="sy-account-links" wrap>
        <PlainText type="secondary">
          {t('auth.login.forgot')} <Link to="/reset">{t('auth.login.resetLink')}</Link>
        </PlainText>
        {!status.self_use_mode_enabled && (
          <PlainText type="secondary">
            {t('auth.login.noAccount')} <Link to="/register">{t('auth.login.registerLink')}</Link>
          </PlainText>
        )}
      </Space>
      <ThirdPartyLogin aff={aff} />
    </AccountCard>
  );
}
