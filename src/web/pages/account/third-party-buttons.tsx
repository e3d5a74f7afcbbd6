/**
 * The row of third-party sign-in buttons for the providers the status enables (see
 * `third-party-login.tsx`). Each calls the endpoints of docs/accounts.md#third-party-login; a server that refuses
 * shows its own message.
 */
import { GithubOutlined, LoginOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Divider, Space } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { authorizeUrl, fetchState, type EnabledProviders, type OAuthProvider } from './oauth';
import { TelegramLogin } from './telegram-login';
import { useApp } from '../../state/feedback-app';

// Loaded when first opened: the sign-in page should not carry the dialog and image code.
const WeChatLoginModal = lazy(async () => ({ default: (await import('./wechat-login-modal')).WeChatLoginModal }));

const ICON: Record<OAuthProvider, React.ReactNode> = { github: <GithubOutlined />, oidc: <LoginOutlined />, linuxdo: <LoginOutlined /> };

export function ThirdPartyButtons({ aff, providers }: { aff: string; providers: EnabledProviders }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const status = usePublicStatus();
  const [wechatOpen, setWechatOpen] = useState(false);
  const [wechatOpened, setWechatOpened] = useState(false);
  const [busy, setBusy] = useState<OAuthProvider | null>(null);

  const start = async (provider: OAuthProvider) => {
    setBusy(provider);
    try {
      const state = await fetchState(api, aff);
      const url = authorizeUrl(provider, status, state, window.location.origin);
      if (!url) throw new Error(t('auth.thirdParty.notConfigured'));
      window.location.assign(url);
    } catch (err) {
      void message.error((err as Error).message);
      setBusy(null);
    }
  };

  return (
    <>
      <Divider plain>{t('auth.thirdParty.title')}</Divider>
      <Space wrap style={{ width: '100%', justifyContent: 'center' }} data-testid="third-party">
        {providers.oauth.map((p) => (
          <Button key={p} icon={ICON[p]} loading={busy === p} onClick={() => void start(p)}>
            {t(`auth.thirdParty.${p}`)}
          </Button>
        ))}
        {providers.wechat && (
          <Button
            icon={<WechatOutlined />}
            onClick={() => {
              setWechatOpened(true);
              setWechatOpen(true);
            }}
          >
            {t('auth.thirdParty.wechat')}
          </Button>
        )}
        {providers.telegram && <TelegramLogin botName={status.telegram_bot_name!} />}
      </Space>
      {wechatOpened && (
        <Suspense fallback={null}>
          <WeChatLoginModal open={wechatOpen} onClose={() => setWechatOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
