/**
 * The site notice (`GET /api/notice`, set in Settings): a dialog on the home page with the
 * Markdown rendered and sanitised. "Close for today" hides it until tomorrow or until the
 * text changes; plain "close" only hides it for this visit.
 */
import { Button, Modal } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from '../use-translation';
import { closeNoticeForToday, shouldShowNotice } from './notice-memory';
import { safeMarkdown } from './safe-html';
import { useContent } from './use-content';

export function NoticeDialog() {
  const { t } = useTranslation();
  const { content } = useContent('/api/notice');
  const [dismissed, setDismissed] = useState(false);
  const html = useMemo(() => safeMarkdown(content), [content]);
  const open = !dismissed && shouldShowNotice(content, new Date());
  const closeForToday = () => {
    closeNoticeForToday(content, new Date());
    setDismissed(true);
  };
  return (
    <Modal
      open={open}
      title={t('notice.title')}
      onCancel={() => setDismissed(true)}
      width={640}
      data-testid="notice-dialog"
      footer={[
        <Button key="today" onClick={closeForToday} data-testid="notice-close-today">
          {t('notice.closeToday')}
        </Button>,
        <Button key="close" type="primary" onClick={() => setDismissed(true)} data-testid="notice-close">
          {t('notice.close')}
        </Button>,
      ]}
    >
      <div className="sy-markdown sy-notice" dangerouslySetInnerHTML={{ __html: html }} />
    </Modal>
  );
}
