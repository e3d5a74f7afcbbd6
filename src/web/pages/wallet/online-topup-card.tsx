/**
 * Online top-up (docs/wallet.md#online-top-up): an amount, its payable money from
 * `POST /api/user/amount`, then alipay (zfb) or wechat (wx) through `POST /api/user/pay`,
 * whose form fields are posted to the provider's URL.
 */
import { AlipayCircleOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Card, InputNumber, Space, Statistic, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { minimumAmount, payFormFields, submitPayForm, topUpRefusal, type TopUpReply } from './wallet-model';
import { useApp } from '../../state/feedback-app';

type Method = 'zfb' | 'wx';

export function OnlineTopUpCard() {
  const { t } = useTranslation();
  const { message, modal } = useApp();
  const status = usePublicStatus();
  const enabled = Boolean(status.enable_online_topup);
  const min = minimumAmount(status.min_topup);
  const [amount, setAmount] = useState<number | null>(min);
  const [payable, setPayable] = useState<string | undefined>();

  // The payable money follows the amount (debounced; the server applies the group's ratio).
  useEffect(() => {
    if (!enabled || topUpRefusal({ enabled, amount, min })) return setPayable(undefined);
    const timer = window.setTimeout(() => {
      api
        .request<TopUpReply>('post', '/api/user/amount', { body: { amount, top_up_code: '' } })
        .then((reply) => setPayable(reply.message === 'success' ? String(reply.data) : undefined))
        .catch(() => setPayable(undefined));
    }, 300);
    return () => window.clearTimeout(timer);
  }, [amount, enabled, min]);

  const order = async (method: Method) => {
    const reply = await api.request<TopUpReply>('post', '/api/user/pay', { body: { amount, top_up_code: '', payment_method: method } });
    const fields = payFormFields(reply);
    if (fields.length === 0) return void message.error(typeof reply.data === 'string' ? reply.data : t('wallet.messages.requestFailed'));
    submitPayForm(reply.url!, fields);
  };
  // One action per method, so only the chosen button spins.
  const failed = { error: () => t('wallet.messages.requestFailed') };
  const [orderZfb, orderingZfb] = useAction(() => order('zfb'), failed);
  const [orderWx, orderingWx] = useAction(() => order('wx'), failed);

  const pay = async (method: Method) => {
    const refusal = topUpRefusal({ enabled, amount, min });
    if (refusal === 'disabled') return void message.error(t('wallet.messages.onlineDisabled'));
    if (refusal === 'belowMin') return void message.error(`${t('wallet.messages.belowMin')} ${min}`);
    await (method === 'zfb' ? orderZfb : orderWx)();
  };

  const confirm = (method: Method) =>
    modal.confirm({
      title: t('wallet.online.confirmTitle'),
      content: t('wallet.online.confirmContent', { amount, payable: payable ?? '-' }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => pay(method),
    });

  const start = (method: Method) => (topUpRefusal({ enabled, amount, min }) ? void pay(method) : confirm(method));

  return (
    <Card title={t('wallet.online.title')} data-testid="online-card">
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        {!enabled && <Typography.Text type="secondary">{t('wallet.online.disabledHint')}</Typography.Text>}
        <Space wrap align="end" size={[24, 12]}>
          <div>
            <Typography.Text>{t('wallet.online.amount')}</Typography.Text>
            <InputNumber<number> precision={0} value={amount} onChange={setAmount} style={{ width: 200, display: 'block', marginTop: 4 }} data-testid="topup-amount" />
          </div>
          <Statistic title={t('wallet.online.payable')} value={payable ?? '-'} prefix={payable ? '¥' : undefined} data-testid="topup-payable" />
        </Space>
        <Typography.Text type="secondary">{t('wallet.online.minHint', { min })}</Typography.Text>
        <Space wrap>
          <Button icon={<AlipayCircleOutlined />} loading={orderingZfb} onClick={() => start('zfb')} data-testid="pay-zfb">
            {t('wallet.online.alipay')}
          </Button>
          <Button icon={<WechatOutlined />} loading={orderingWx} onClick={() => start('wx')} data-testid="pay-wx">
            {t('wallet.online.wechat')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
