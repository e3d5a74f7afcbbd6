/**
 * The `log-cleanup` section action: deletes the usage logs written before a chosen time
 * (DELETE /api/log/?target_timestamp=<unix seconds>), one month ago by default, and says how
 * many were cleaned.
 */
import { DeleteOutlined } from '@ant-design/icons';
import { Button, DatePicker, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { api } from '../../state/wire';
import { useApp } from '../../state/feedback-app';

export function LogCleanup() {
  const { t } = useTranslation();
  const { message, modal } = useApp();
  const [when, setWhen] = useState<Dayjs | null>(() => dayjs().subtract(1, 'month'));
  const [clean, busy] = useAction((target: Dayjs) => api.request<number>('delete', '/api/log/', { query: { target_timestamp: target.unix() } }), {
    success: (count) => t('settings.logCleanup.done', { count: Number(count) || 0 }),
    error: (err) => `${t('settings.logCleanup.failed')}: ${err.message}`,
  });

  const ask = () => {
    if (!when) {
      void message.error(t('settings.logCleanup.pickTime'));
      return;
    }
    modal.confirm({
      title: t('settings.logCleanup.confirmTitle'),
      content: t('settings.logCleanup.confirmContent', { time: when.format('YYYY-MM-DD HH:mm:ss') }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => clean(when),
    });
  };

  return (
    <div className="sy-settings-action" data-testid="log-cleanup">
      <Typography.Text strong>{t('settings.logCleanup.title')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ margin: '4px 0 8px' }}>
        {t('settings.logCleanup.hint')}
      </Typography.Paragraph>
      <Space wrap>
        <DatePicker showTime value={when} onChange={setWhen} placeholder={t('settings.logCleanup.pickTime')} />
        <Button danger icon={<DeleteOutlined />} loading={busy} onClick={ask}>
          {t('settings.logCleanup.submit')}
        </Button>
      </Space>
    </div>
  );
}
