/**
 * Route guards (seed 000 §2, issue item 6): a protected route without a stored user goes
 * to /login; a screen above the user's role is neither listed nor shown.
 */
import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { hasRole } from './auth-provider';
import { useStoredUser } from './state/use-stored-user';

export function Forbidden() {
  const { t } = useTranslation();
  return (
    <Result
      status="403"
      title={t('forbidden.title')}
      subTitle={t('forbidden.subtitle')}
      extra={
        <Link to="/">
          <Button type="primary">{t('common.backHome')}</Button>
        </Link>
      }
    />
  );
}

export function RequireRole({ minRole, children }: { minRole: number; children: ReactNode }) {
  const user = useStoredUser();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (!hasRole(user, minRole)) return <Forbidden />;
  return <>{children}</>;
}
