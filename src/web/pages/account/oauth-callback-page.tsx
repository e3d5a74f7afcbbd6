/**
 * /oauth/{github|oidc|linuxdo} (docs/console.md#account-pages): hands the provider's code
 * and state to the server. A `bind` reply means an account was linked; otherwise the reply
 * is the signed-in user. On failure the server's message is shown before leaving.
 */
import { Result, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../use-translation';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { getStoredUser, type StoredUser } from '../../auth-provider';
import { api } from '../../state/wire';
import { useFinishLogin } from './use-finish-login';
import { useApp } from '../../state/feedback-app';

const PROVIDERS = new Set(['github', 'oidc', 'linuxdo']);

export function OAuthCallbackPage() {
  const { t } = useTranslation();
  const { message } = useApp();
  const navigate = useNavigate();
  const finish = useFinishLogin();
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  const started = useRef(false);

  useEffect(() => {
    // Codes are single-use: run once even under StrictMode's double effects.
    if (started.current || !PROVIDERS.has(provider)) return;
    started.current = true;
    const leave = () => navigate(getStoredUser() ? '/personal' : '/login', { replace: true });
    const query = Object.fromEntries(params.entries());
    api
      .request<StoredUser>('get', `/api/oauth/${provider}`, { query })
      .then((user) => {
        // A bind answers `{success: true, message: "bind"}` with no user record.
        if (!user || typeof user !== 'object' || typeof user.id !== 'number') {
          void message.success(t('auth.oauth.bound'));
          leave();
          return;
        }
        finish(user);
      })
      .catch((err: Error) => {
        void message.error(err.message);
        void message.info(t('auth.oauth.failed'));
        window.setTimeout(leave, 1500);
      });
  }, [provider, params, navigate, finish, message, t]);

  if (!PROVIDERS.has(provider)) return <Result status="404" title={t('notFound.title')} subTitle={t('notFound.subtitle')} />;
  return (
    <div className="sy-page-spinner">
      <Spin tip={t('auth.oauth.processing')} size="large">
        <div style={{ width: 200, height: 80 }} />
      </Spin>
    </div>
  );
}
