/**
 * A signed-in user: avatar initial and name, with the personal page and logout
 * (`signed-in-menu.tsx`). A guest: Login and Register (Register hidden on phones and in
 * self-use mode).
 */
import { Button, Space } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from '../use-translation';
import { Link } from 'react-router';
import { SIGNED_IN_CHUNKS } from '../chunks';
import { lazyChunk } from '../lazy-chunk';
import { usePublicStatus } from '../state/status-context';
import { useStoredUser } from '../state/use-stored-user';
import { useIsMobile } from './use-is-mobile';

// Only for someone signed in, so guests (the sign-in page) load no Dropdown or Avatar. A
// signed-in visit loads it with its first screen (`screen-preload.ts`): were it to suspend the
// first render, React would render the whole screen again once it came.
const SignedInMenu = lazyChunk(SIGNED_IN_CHUNKS.userMenu);

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
