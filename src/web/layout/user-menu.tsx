/**
 * A signed-in user: avatar initial and name, with the personal page and logout
 * (`signed-in-menu.tsx`). A guest: Login and Register (Register hidden on phones and in
 * self-use mode).
 */
import { Button, Space } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from '../use-translation';
import { Link } from 'react-router';
import { usePublicStatus } from '../state/status-context';
import { useStoredUser } from '../state/use-stored-user';
import { useIsMobile } from './use-is-mobile';

// Only for someone signed in, so guests (the sign-in page) load no Dropdown or Avatar.
const SignedInMenu = lazy(async () => ({ default: (await import('./signed-in-menu')).SignedInMenu }));

export function UserMenu() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const status = usePublicStatus();
  const isMobile = useIsMobile();

  if (user) {
    return (
      <Suspense fallback={null}>
        <SignedInMenu user={user} />
      </Suspense>
    );
  }
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
