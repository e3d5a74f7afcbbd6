/**
 * Redeem a code (`POST /api/user/topup {key}`): 请输入兑换码！ when empty; the added quota is
 * shown and the balance reloads. The top-up link opens the page where codes are sold; without
 * one the user is told the super administrator has not set it.
 */
import { GiftOutlined, LinkOutlined } from '@ant-design/icons';
import { Button, Card, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { displayQuota, quotaView } from '../../crud/quota-format';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { useApp } from '../../state/feedback-app';

export function RedeemCard({ onRedeemed }: { onRedeemed: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = useApp();
  const status = usePublicStatus();
  const view = quotaView(status);
  const [code, setCode] = useState('');
  const [send, busy] = useAction(
    async () => {
      const quota = await api.request<number>('post', '/api/user/topup', { body: { key: code.trim() } });
      modal.success({ title: t('wallet.messages.redeemedTitle'), content: t('wallet.messages.redeemedAmount', { amount: displayQuota(Number(quota), view) }), okText: t('common.ok') });
      setCode('');
      onRedeemed();
    },
    { success: t('wallet.messages.redeemed') },
  );

  const redeem = async () => {
    if (!code.trim()) return void message.error(t('wallet.messages.codeMissing'));
    await send();
  };

  const openLink = () => {
    if (status.top_up_link) window.open(status.top_up_link, '_blank', 'noopener');
    else void message.error(t('wallet.messages.noTopUpLink'));
  };

  return (
    <Card title={t('wallet.redeem.title')} data-testid="redeem-card">
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('wallet.redeem.hint')}</Typography.Text>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            prefix={<GiftOutlined />}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onPressEnter={() => void redeem()}
            placeholder={t('wallet.redeem.placeholder')}
            allowClear
            data-testid="redeem-code"
          />
          <Button type="primary" loading={busy} onClick={() => void redeem()} data-testid="redeem-submit">
            {t('wallet.redeem.submit')}
          </Button>
        </Space.Compact>
        <Button icon={<LinkOutlined />} onClick={openLink} data-testid="topup-link">
          {t('wallet.redeem.buy')}
        </Button>
      </Space>
    </Card>
  );
}
