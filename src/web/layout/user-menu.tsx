/**
 * A signed-in user: avatar initial and name, with the personal page and logout. A guest:
 * Login and Register (Register hidden on phones and in self-use mode).
 */
import { IdcardOutlined, LogoutOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Dropdown, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { logout } from '../auth-provider';
import { isRouted } from '../routes';
import { usePublicStatus } from '../state/status-context';
import { useStoredUser } from '../state/use-stored-user';
import { api } from '../state/wire';
import { useIsMobile } from './use-is-mobile';

export function UserMenu() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const user = useStoredUser();
  const status = usePublicStatus();
  const isMobile = useIsMobile();

  if (!user) {
    return (
      <Space size={4}>
        <Link to="/login">
          <Button type="primary" size="small">
            {t('header.login')}
          </Button>
        </Link>
        {!isMobile && !status.self_use_mode_enabled && (
          <Link to="/register">
            <Button size="small">{t('header.register')}</Button>
          </Link>
        )}
      </Space>
    );
  }

  const onLogout = async () => {
    await logout(api).catch(() => undefined);
    void message.success(t('header.loggedOut'));
    navigate('/login');
  };

  const items = [
    ...(isRouted('/personal') ? [{ key: 'personal', icon: <IdcardOutlined />, label: t('nav.personal') }] : []),
    { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout') },
  ];
  return (
    <Dropdown
      trigger={['click']}
      menu={{ items, onClick: ({ key }) => (key === 'logout' ? void onLogout() : navigate('/personal')) }}
    >
      <Button type="text" data-testid="user-menu" style={{ paddingInline: 6 }}>
        <Avatar size="small" style={{ backgroundColor: '#2563eb' }}>
          {(user.display_name || user.username).slice(0, 1).toUpperCase()}
        </Avatar>
        {!isMobile && (
          <Typography.Text style={{ maxWidth: 120 }} ellipsis>
            {user.username}
          </Typography.Text>
        )}
      </Button>
    </Dropdown>
  );
}
