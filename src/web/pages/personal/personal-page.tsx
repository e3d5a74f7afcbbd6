/**
 * /personal: the signed-in user's own account (docs/console.md#personal-settings): the
 * default-password warning, profile with balance, used quota and requests, the models they
 * may call, invitations, bindings, notifications, and security (password, system access
 * token, account deletion).
 */
import { Alert, Col, Row, Space } from 'antd';
import { useTranslation } from '../../use-translation';
import { useStoredUser } from '../../state/use-stored-user';
import { BindingsCard } from './bindings-card';
import { InvitationCard } from './invitation-card';
import { ModelTags } from './model-tags';
import { NotificationCard } from './notification-card';
import { ProfileCard } from './profile-card';
import { SecurityCard } from './security-card';
import { useSelf } from '../../state/use-self';
import './personal.css';

export function PersonalPage() {
  const { t } = useTranslation();
  const stored = useStoredUser();
  const { self, reload } = useSelf();
  if (!stored) return null;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {stored.default_password && <Alert type="warning" showIcon message={t('auth.defaultPassword.title')} description={t('auth.defaultPassword.content')} data-testid="default-password-alert" />}
      <ProfileCard user={stored} self={self} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <ModelTags />
            <InvitationCard self={self} onChanged={reload} />
            <NotificationCard self={self} onChanged={reload} />
          </Space>
        </Col>
        <Col xs={24} xl={12}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <BindingsCard self={self} onChanged={reload} />
            <SecurityCard username={stored.username} self={self} onChanged={reload} />
          </Space>
        </Col>
      </Row>
    </Space>
  );
}
