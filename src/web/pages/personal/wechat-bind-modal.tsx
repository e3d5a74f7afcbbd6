/** Binding WeChat: scan the official account's QR code, enter the code it replies (GET /api/oauth/wechat/bind). */
import { Image, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { useApp } from '../../state/feedback-app';

export function WeChatBindModal({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const status = usePublicStatus();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const bind = async () => {
    setBusy(true);
    try {
      await api.request('get', '/api/oauth/wechat/bind', { query: { code } });
      void message.success(t('auth.oauth.bound'));
      onBound();
      onClose();
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

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
