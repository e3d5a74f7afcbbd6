/**
 * A signed-in user's menu in the top bar: avatar initial and name, with the personal page
 * and logout. Its own chunk (with antd's Dropdown and Avatar), loaded once someone is
 * signed in.
 */
import { IdcardOutlined, LogoutOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, Typography } from 'antd';
import { useTranslation } from '../use-translation';
import { useNavigate } from 'react-router';
import { logout, type StoredUser } from '../auth-provider';
import { isRouted } from '../routes';
import { api } from '../state/wire';
import { useIsMobile } from './use-is-mobile';
import { useApp } from '../state/feedback-app';

export function SignedInMenu({ user }: { user: StoredUser }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const navigate = useNavigate();
  const isMobile = useIsMobile();

  const onLogout = async () => {
    await logout(api).catch(() => undefined);
    void message.success(t('header.loggedOut'));
    navigate('/login');
  };

  const items = [...(isRouted('/personal') ? [{ key: 'personal', icon: <IdcardOutlined />, label: t('nav.personal') }] : []), { key: 'logout', icon: <LogoutOutlined />, label: t('header.logout') }];
  return (
    <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => (key === 'logout' ? void onLogout() : navigate('/personal')) }}>
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
