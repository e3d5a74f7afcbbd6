/**
 * The screen for a route above the user's role. Apart from the guards so that antd's Result
 * (and its illustrations) load only when it shows.
 */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

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
