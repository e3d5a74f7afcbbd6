/**
 * /user/reset?email&token (docs/accounts.md#password-reset): confirms the reset; the server answers the new
 * password, which is shown and copied to the clipboard.
 */
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useSearchParams } from 'react-router';
import { useCopy } from '../../components/use-copy';
import { api } from '../../state/wire';
import { AccountCard } from './account-card';
import { useApp } from '../../state/feedback-app';

export function ResetConfirmPage() {
  const { t } = useTranslation();
  const { message } = useApp();
  const copy = useCopy();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      const newPassword = await api.request<string>('post', '/api/user/reset', { body: { email, token } });
      setPassword(newPassword);
      await copy(newPassword, t('auth.resetConfirm.copied', { password: newPassword }));
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AccountCard title={t('auth.resetConfirm.title')}>
      {!email || !token ? (
        <Alert type="error" showIcon message={t('auth.resetConfirm.invalidLink')} />
      ) : (
        <Form layout="vertical" size="large">
          <Form.Item label={t('auth.register.email')}>
            <Input value={email} readOnly variant="filled" />
          </Form.Item>
          {password && (
            <Form.Item label={t('auth.resetConfirm.newPassword')}>
              <Input.Password value={password} readOnly visibilityToggle={{ visible: true }} data-testid="new-password" />
            </Form.Item>
          )}
          <Button type="primary" block loading={busy} disabled={Boolean(password)} onClick={() => void confirm()}>
            {t('auth.resetConfirm.submit')}
          </Button>
        </Form>
      )}
    </AccountCard>
  );
}
