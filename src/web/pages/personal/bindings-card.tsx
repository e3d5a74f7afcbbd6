/**
 * Account bindings: email (code by mail), WeChat (code from the official account), Telegram
 * (the widget), GitHub, OIDC and Linux DO (the provider's page, back through /oauth/<id>,
 * which binds while signed in). A provider the status does not enable cannot be bound; every
 * refusal shows the server's message.
 */
import { GithubOutlined, LoginOutlined, MailOutlined, SendOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Card, List, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../use-translation';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { authorizeUrl, enabledProviders, fetchState, type OAuthProvider } from '../account/oauth';
import { EmailBindModal } from './email-bind-modal';
import { TelegramBind } from './telegram-bind';
import type { SelfRecord } from '../../state/use-self';
import { WeChatBindModal } from './wechat-bind-modal';
import { useApp } from '../../state/feedback-app';

type Binding = 'email' | 'wechat' | 'telegram' | OAuthProvider;

const FIELD: Record<Binding, keyof SelfRecord> = {
  email: 'email',
  wechat: 'wechat_id',
  telegram: 'telegram_id',
  github: 'github_id',
  oidc: 'oidc_id',
  linuxdo: 'linux_do_id',
};

const ICON: Record<Binding, ReactNode> = {
  email: <MailOutlined />,
  wechat: <WechatOutlined />,
  telegram: <SendOutlined />,
  github: <GithubOutlined />,
  oidc: <LoginOutlined />,
  linuxdo: <LoginOutlined />,
};

export function BindingsCard({ self, onChanged }: { self: SelfRecord | undefined; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const status = usePublicStatus();
  const providers = enabledProviders(status);
  const [modal, setModal] = useState<'email' | 'wechat' | null>(null);
  const [busy, setBusy] = useState<OAuthProvider | null>(null);

  const enabled: Record<Binding, boolean> = {
    email: true,
    wechat: providers.wechat,
    telegram: providers.telegram,
    github: providers.oauth.includes('github'),
    oidc: providers.oauth.includes('oidc'),
    linuxdo: providers.oauth.includes('linuxdo'),
  };

  const startOAuth = async (provider: OAuthProvider) => {
    setBusy(provider);
    try {
      const url = authorizeUrl(provider, status, await fetchState(api, ''), window.location.origin);
      if (!url) throw new Error(t('auth.thirdParty.notConfigured'));
      window.location.assign(url);
    } catch (err) {
      void message.error((err as Error).message);
      setBusy(null);
    }
  };

  const action = (binding: Binding, bound: boolean): ReactNode => {
    if (!enabled[binding]) return <Tag>{t('personal.bind.disabled')}</Tag>;
    if (binding === 'email') {
      return (
        <Button size="small" onClick={() => setModal('email')} data-testid="bind-email-open">
          {bound ? t('personal.bind.change') : t('personal.bind.bind')}
        </Button>
      );
    }
    if (bound) return <Tag color="green">{t('personal.bind.bound')}</Tag>;
    if (binding === 'wechat')
      return (
        <Button size="small" onClick={() => setModal('wechat')}>
          {t('personal.bind.bind')}
        </Button>
      );
    if (binding === 'telegram') return <TelegramBind botName={status.telegram_bot_name!} onBound={onChanged} />;
    return (
      <Button size="small" loading={busy === binding} onClick={() => void startOAuth(binding)} data-testid={`bind-${binding}`}>
        {t('personal.bind.bind')}
      </Button>
    );
  };

  return (
    <Card title={t('personal.bind.title')} data-testid="bindings-card">
      <List
        itemLayout="horizontal"
        dataSource={Object.keys(FIELD) as Binding[]}
        renderItem={(binding) => {
          const value = self ? String(self[FIELD[binding]] ?? '') : '';
          return (
            <List.Item actions={[action(binding, value !== '')]} data-testid={`binding-${binding}`}>
              <List.Item.Meta
                avatar={<span className="sy-binding-icon">{ICON[binding]}</span>}
                title={t(`personal.bind.providers.${binding}`)}
                description={
                  <Typography.Text type="secondary" ellipsis className={value ? 'sy-mono' : undefined}>
                    {value || t('personal.bind.none')}
                  </Typography.Text>
                }
              />
            </List.Item>
          );
        }}
      />
      <EmailBindModal open={modal === 'email'} onClose={() => setModal(null)} onBound={onChanged} />
      <WeChatBindModal open={modal === 'wechat'} onClose={() => setModal(null)} onBound={onChanged} />
    </Card>
  );
}
