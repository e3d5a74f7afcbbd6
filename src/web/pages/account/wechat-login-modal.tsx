/** WeChat sign-in: scan the official account's QR code, then enter the code it replies (valid 3 minutes). */
import { Button, Image, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import type { StoredUser } from '../../auth-provider';
import { usePublicStatus } from '../../state/status-context';
import { api } from '../../state/wire';
import { useFinishLogin } from './use-finish-login';
import { useApp } from '../../state/feedback-app';

export function WeChatLoginModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const status = usePublicStatus();
  const finish = useFinishLogin();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    try {
      finish(await api.request<StoredUser>('get', '/api/oauth/wechat', { query: { code } }));
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onCancel={onClose} title={t('auth.wechat.title')} footer={null} destroyOnHidden>
      <Space direction="vertical" align="center" style={{ width: '100%' }}>
        {status.wechat_qrcode && <Image src={status.wechat_qrcode} width={200} preview={false} alt="" />}
        <Typography.Text type="secondary">{t('auth.wechat.hint')}</Typography.Text>
        <Space.Compact style={{ width: '100%' }}>
          <Input value={code} onChange={(e) => setCode(e.target.value)} placeholder={t('auth.wechat.code')} onPressEnter={() => void submit()} />
          <Button type="primary" loading={busy} disabled={!code} onClick={() => void submit()}>
            {t('auth.login.submit')}
          </Button>
        </Space.Compact>
      </Space>
    </Modal>
  );
}
