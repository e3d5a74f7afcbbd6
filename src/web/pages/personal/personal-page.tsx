/**
 * /personal: the signed-in user's account at a glance (GET /api/user/self): name, role
 * badge, group, balance, used quota and request count, and the default-password warning.
 * The full personal settings (bindings, password, tokens, invitations, notifications,
 * deletion) replace this page in the personal-settings work.
 */
import { Alert, App, Avatar, Card, Col, Descriptions, Row, Space, Statistic, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdmin, type StoredUser } from '../../auth-provider';
import { displayQuota, quotaView } from '../../crud/quota-format';
import { usePublicStatus } from '../../state/status-context';
import { useStoredUser } from '../../state/use-stored-user';
import { api } from '../../state/wire';

interface SelfRecord extends StoredUser {
  email: string;
  quota: number;
  used_quota: number;
  request_count: number;
}

export function PersonalPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const stored = useStoredUser();
  const view = quotaView(usePublicStatus());
  const [self, setSelf] = useState<SelfRecord | undefined>();

  useEffect(() => {
    api
      .request<SelfRecord>('get', '/api/user/self')
      .then(setSelf)
      .catch((err: Error) => void message.error(err.message));
  }, [message]);

  const user = self ?? stored;
  if (!user) return null;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {stored?.default_password && <Alert type="warning" showIcon message={t('auth.defaultPassword.title')} description={t('auth.defaultPassword.content')} data-testid="default-password-alert" />}
      <Card>
        <Space size={16} align="center" wrap>
          <Avatar size={56} style={{ backgroundColor: '#2563eb', fontSize: 24 }}>
            {(user.display_name || user.username).slice(0, 1).toUpperCase()}
          </Avatar>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {user.display_name || user.username}{' '}
              <Tag color={isAdmin(user) ? 'gold' : 'blue'}>{t(isAdmin(user) ? 'personal.admin' : 'personal.ordinary')}</Tag>
            </Typography.Title>
            <Typography.Text type="secondary">
              @{user.username} · {t('users.fields.group')}: {user.group || 'default'}
            </Typography.Text>
          </div>
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic title={t('personal.balance')} value={self ? displayQuota(self.quota, view) : '-'} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic title={t('personal.used')} value={self ? displayQuota(self.used_quota, view) : '-'} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic title={t('personal.requests')} value={self?.request_count ?? '-'} />
          </Card>
        </Col>
      </Row>
      <Card title={t('personal.account')}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('users.fields.id')}>{user.id}</Descriptions.Item>
          <Descriptions.Item label={t('users.fields.username')}>{user.username}</Descriptions.Item>
          <Descriptions.Item label={t('users.fields.displayName')}>{user.display_name || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('users.fields.email')}>{self?.email || '-'}</Descriptions.Item>
        </Descriptions>
      </Card>
    </Space>
  );
}
