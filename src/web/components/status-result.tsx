/** A whole-page status (403, 404) with the way back home: one look for every such screen. */
import { Button, Result } from 'antd';
import { useTranslation } from '../use-translation';
import { Link } from 'react-router';

export function StatusResult({ status, titleKey, subtitleKey }: { status: '403' | '404'; titleKey: string; subtitleKey: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status={status}
      title={t(titleKey)}
      subTitle={t(subtitleKey)}
      extra={
        <Link to="/">
          <Button type="primary">{t('common.backHome')}</Button>
        </Link>
      }
    />
  );
}
