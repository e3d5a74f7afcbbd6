/**
 * The head of the personal page: avatar, name, the admin/ordinary badge, group, and the
 * balance, used quota and request count.
 */
import { Avatar, Card, Col, Divider, Row, Space, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from '../../use-translation';
import { isAdmin, type StoredUser } from '../../auth-provider';
import { displayQuota, quotaView } from '../../crud/quota-format';
import { usePublicStatus } from '../../state/status-context';
import type { SelfRecord } from '../../state/use-self';

export function ProfileCard({ user, self }: { user: StoredUser; self: SelfRecord | undefined }) {
  const { t } = useTranslation();
  const view = quotaView(usePublicStatus());
  const admin = isAdmin(self ?? user);
  const name = (self ?? user).display_name || user.username;
  return (
    <Card data-testid="profile-card">
      <Space size={16} align="center" wrap>
        <Avatar size={56} style={{ backgroundColor: '#2563eb', fontSize: 24 }}>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {name}{' '}
            <Tag color={admin ? 'gold' : 'blue'} data-testid="role-badge">
              {t(admin ? 'personal.admin' : 'personal.ordinary')}
            </Tag>
          </Typography.Title>
          <Typography.Text type="secondary">
            @{user.username} · {t('users.fields.group')}: {(self ?? user).group || 'default'}
          </Typography.Text>
        </div>
      </Space>
      <Divider style={{ margin: '20px 0' }} />
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.balance')} value={self ? displayQuota(self.quota, view) : '-'} data-testid="stat-balance" />
        </Col>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.used')} value={self ? displayQuota(self.used_quota, view) : '-'} />
        </Col>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.requests')} value={self?.request_count ?? '-'} />
        </Col>
      </Row>
    </Card>
  );
}
