/**
 * Binding an email: send a code (GET /api/verification, bot check when on, 30 s lock), then
 * bind with it (GET /api/oauth/email/bind). Empty fields get their messages (docs/messages.md#accounts-and-settings).
 */
import { Button, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { api } from '../../state/wire';
import { useCountdown } from '../account/use-countdown';
import { useTurnstile } from '../account/use-turnstile';
import { useApp } from '../../state/feedback-app';

export function EmailBindModal({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const turnstile = useTurnstile();
  const countdown = useCountdown();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sendCode, sending] = useAction(
    async () => {
      await api.request('get', '/api/verification', { query: { email: email.trim(), turnstile: turnstile.token } });
      countdown.start();
    },
    { success: t('auth.register.codeSent') },
  );
  const [bindEmail, binding] = useAction(
    async () => {
      await api.request('get', '/api/oauth/email/bind', { query: { email: email.trim(), code: code.trim() } });
      onBound();
      onClose();
    },
    { success: t('auth.oauth.bound') },
  );

  const send = async () => {
    if (!email.trim()) return void message.error(t('auth.register.emailMissing'));
    if (!turnstile.ready()) return;
    await sendCode();
  };

  const bind = async () => {
    if (!email.trim()) return void message.error(t('auth.register.emailMissing'));
    if (!code.trim()) return void message.error(t('auth.register.codeMissing'));
    await bindEmail();
  };

  return (
    <Modal
      open={open}
      title={t('personal.bind.emailTitle')}
      onCancel={onClose}
      onOk={() => void bind()}
      confirmLoading={binding}
      okText={t('personal.bind.bind')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Space.Compact style={{ width: '100%' }}>
          <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder={t('auth.register.email')} data-testid="bind-email" />
          <Button loading={sending} disabled={countdown.remaining > 0} onClick={() => void send()} data-testid="bind-email-send">
            {countdown.remaining > 0 ? t('auth.register.resendIn', { seconds: countdown.remaining }) : t('auth.register.sendCode')}
          </Button>
        </Space.Compact>
        <Input value={code} onChange={(e) => setCode(e.target.value)} placeholder={t('auth.register.code')} data-testid="bind-email-code" />
        {turnstile.widget}
      </Space>
    </Modal>
  );
}
