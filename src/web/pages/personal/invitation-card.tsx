/**
 * Invitations: the invite link (GET /api/user/aff, the code made on first request), the
 * invited count, pending and total rewards, and moving pending rewards into the balance
 * (POST /api/user/aff_transfer, at least one currency unit: 划转金额最低为 ...).
 */
import { CopyOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Card, Col, Input, Modal, Row, Space, Statistic, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { useCopy } from '../../components/use-copy';
import { displayQuota, quotaView } from '../../crud/quota-format';
import { QuotaInput } from '../../crud/quota-input';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import type { SelfRecord } from '../../state/use-self';
import { useApp } from '../../state/feedback-app';

export function InvitationCard({ self, onChanged }: { self: SelfRecord | undefined; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const copy = useCopy();
  const view = quotaView(usePublicStatus());
  const [code, setCode] = useState('');
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<number | null>(null);

  useEffect(() => {
    api
      .request<string>('get', '/api/user/aff')
      .then((c) => setCode(typeof c === 'string' ? c : ''))
      .catch((err: Error) => void message.error(err.message));
  }, [message]);

  const link = code ? `${window.location.origin}/register?aff=${code}` : '';

  const [send, busy] = useAction(
    async (quota: number) => {
      await api.request('post', '/api/user/aff_transfer', { body: { quota } });
      setOpen(false);
      onChanged();
    },
    { success: t('personal.invite.transferred') },
  );

  const transfer = async () => {
    const quota = Number(amount ?? 0);
    if (quota < view.perUnit) {
      void message.error(t('personal.invite.minimum', { amount: displayQuota(view.perUnit, view) }));
      return;
    }
    await send(quota);
  };

  return (
    <Card title={t('personal.invite.title')} data-testid="invitation-card">
      <Row gutter={[16, 16]}>
        <Col xs={8}>
          <Statistic title={t('personal.invite.pending')} value={self ? displayQuota(self.aff_quota, view) : '-'} />
        </Col>
        <Col xs={8}>
          <Statistic title={t('personal.invite.total')} value={self ? displayQuota(self.aff_history_quota, view) : '-'} />
        </Col>
        <Col xs={8}>
          <Statistic title={t('personal.invite.count')} value={self?.aff_count ?? '-'} />
        </Col>
      </Row>
      <Typography.Text type="secondary" style={{ display: 'block', margin: '16px 0 8px' }}>
        {t('personal.invite.linkHint')}
      </Typography.Text>
      <Space.Compact style={{ width: '100%' }}>
        <Input value={link} readOnly data-testid="invite-link" />
        <Button icon={<CopyOutlined />} disabled={!link} onClick={() => void copy(link, t('personal.invite.copied'))}>
          {t('personal.copy')}
        </Button>
      </Space.Compact>
      <Button
        icon={<SwapOutlined />}
        style={{ marginTop: 16 }}
        disabled={!self}
        onClick={() => {
          setAmount(self?.aff_quota ?? 0);
          setOpen(true);
        }}
        data-testid="aff-transfer"
      >
        {t('personal.invite.transfer')}
      </Button>
      <Modal
        open={open}
        title={t('personal.invite.transferTitle')}
        onOk={() => void transfer()}
        onCancel={() => setOpen(false)}
        confirmLoading={busy}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('personal.invite.available', { amount: self ? displayQuota(self.aff_quota, view) : '-' })}</Typography.Text>
          <QuotaInput value={amount ?? undefined} onChange={setAmount} />
          <Typography.Text type="secondary">{t('personal.invite.minimum', { amount: displayQuota(view.perUnit, view) })}</Typography.Text>
        </Space>
      </Modal>
    </Card>
  );
}
