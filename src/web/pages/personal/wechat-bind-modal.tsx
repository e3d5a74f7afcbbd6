/** Binding WeChat: scan the official account's QR code, enter the code it replies (GET /api/oauth/wechat/bind). */
import { Image, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';

export function WeChatBindModal({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const [code, setCode] = useState('');
  const [bind, busy] = useAction(
    async () => {
      await api.request('get', '/api/oauth/wechat/bind', { query: { code } });
      onBound();
      onClose();
    },
    { success: t('auth.oauth.bound') },
  );

  return (
    <Modal
      open={open}
      title={t('personal.bind.wechatTitle')}
      onCancel={onClose}
      onOk={() => void bind()}
      okButtonProps={{ disabled: !code.trim() }}
      confirmLoading={busy}
      okText={t('personal.bind.bind')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Space direction="vertical" align="center" style={{ width: '100%' }}>
        {status.wechat_qrcode && <Image src={status.wechat_qrcode} width={200} preview={false} alt="" />}
        <Typography.Text type="secondary">{t('auth.wechat.hint')}</Typography.Text>
        <Input value={code} onChange={(e) => setCode(e.target.value)} placeholder={t('auth.wechat.code')} onPressEnter={() => void bind()} />
      </Space>
    </Modal>
  );
}
