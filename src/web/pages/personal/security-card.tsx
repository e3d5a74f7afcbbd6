/**
 * Security: change the password (PUT /api/user/self with only the password), generate the
 * system access token (GET /api/user/token, copied at once), and delete the account after
 * typing one's username (DELETE /api/user/self, then signed out).
 */
import { DeleteOutlined, KeyOutlined, LockOutlined } from '@ant-design/icons';
import { Button, Card, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useNavigate } from 'react-router';
import { clearStoredUser } from '../../auth-provider';
import { useAction } from '../../components/use-action';
import { useCopy } from '../../components/use-copy';
import { api } from '../../state/wire';
import type { SelfRecord } from '../../state/use-self';
import { useApp } from '../../state/feedback-app';

type Dialog = 'password' | 'delete' | null;

export function SecurityCard({ username, self, onChanged }: { username: string; self: SelfRecord | undefined; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const copy = useCopy();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [password, setPassword] = useState({ first: '', second: '' });
  const [typed, setTyped] = useState('');
  const [token, setToken] = useState('');
  const [savePassword, savingPassword] = useAction(
    async () => {
      await api.request('put', '/api/user/self', { body: { password: password.first } });
      setPassword({ first: '', second: '' });
      setDialog(null);
    },
    { success: t('personal.security.passwordChanged') },
  );
  const [generateToken, generating] = useAction(async () => {
    const fresh = await api.request<string>('get', '/api/user/token');
    setToken(fresh);
    await copy(fresh, t('personal.security.tokenCopied'));
    onChanged();
  });
  const [removeAccount, deleting] = useAction(
    async () => {
      await api.request('delete', '/api/user/self');
      clearStoredUser();
      navigate('/login', { replace: true });
    },
    { success: t('personal.security.deleted') },
  );

  const changePassword = () => {
    if (password.first.length < 8) return void message.error(t('auth.register.passwordTooShort'));
    if (password.first !== password.second) return void message.error(t('personal.security.mismatch'));
    return savePassword();
  };

  const deleteAccount = () => {
    if (typed !== username) return void message.error(t('personal.security.typeUsername'));
    return removeAccount();
  };

  const shownToken = token || self?.access_token || '';
  return (
    <Card title={t('personal.security.title')} data-testid="security-card">
      <Space direction="vertical" size={20} style={{ width: '100%' }}>
        <div>
          <Typography.Text strong>{t('personal.security.tokenTitle')}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 8px' }}>
            {t('personal.security.tokenHint')}
          </Typography.Paragraph>
          {shownToken && <Input.Password className="sy-mono" value={shownToken} readOnly style={{ marginBottom: 8 }} data-testid="access-token" />}
          <Button icon={<KeyOutlined />} loading={generating} onClick={() => void generateToken()} data-testid="token-generate">
            {shownToken ? t('personal.security.tokenReset') : t('personal.security.tokenGenerate')}
          </Button>
        </div>
        <div>
          <Typography.Text strong>{t('personal.security.passwordTitle')}</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Button icon={<LockOutlined />} onClick={() => setDialog('password')} data-testid="password-open">
              {t('personal.security.passwordChange')}
            </Button>
          </div>
        </div>
        <div>
          <Typography.Text strong type="danger">
            {t('personal.security.deleteTitle')}
          </Typography.Text>
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 8px' }}>
            {t('personal.security.deleteHint')}
          </Typography.Paragraph>
          <Button danger icon={<DeleteOutlined />} onClick={() => setDialog('delete')} data-testid="delete-open">
            {t('personal.security.deleteAccount')}
          </Button>
        </div>
      </Space>
      <Modal
        open={dialog === 'password'}
        title={t('personal.security.passwordChange')}
        onOk={() => void changePassword()}
        onCancel={() => setDialog(null)}
        confirmLoading={savingPassword}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Input.Password
            autoComplete="new-password"
            placeholder={t('auth.register.password')}
            value={password.first}
            onChange={(e) => setPassword((p) => ({ ...p, first: e.target.value }))}
            data-testid="password-new"
          />
          <Input.Password
            autoComplete="new-password"
            placeholder={t('auth.register.password2')}
            value={password.second}
            onChange={(e) => setPassword((p) => ({ ...p, second: e.target.value }))}
            data-testid="password-repeat"
          />
        </Space>
      </Modal>
      <Modal
        open={dialog === 'delete'}
        title={t('personal.security.deleteConfirmTitle')}
        onOk={() => void deleteAccount()}
        onCancel={() => setDialog(null)}
        confirmLoading={deleting}
        okText={t('personal.security.deleteAccount')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('personal.security.deleteWarning')}</Typography.Paragraph>
        <Input placeholder={t('personal.security.typeUsernamePlaceholder', { username })} value={typed} onChange={(e) => setTyped(e.target.value)} data-testid="delete-confirm-input" />
      </Modal>
    </Card>
  );
}
