/** /about: the configured About content, or a note saying where to set it. */
import { Card, Spin, Typography } from 'antd';
import { useTranslation } from '../../use-translation';
import { MarkdownOrFrame } from '../../components/markdown-or-frame';
import { useContent } from '../../components/use-content';
import { DEFAULT_SYSTEM_NAME } from '../../state/public-status';
import { usePublicStatus } from '../../state/status-context';

export function AboutPage() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const { content, loading } = useContent('/api/about');
  if (loading) return <Spin className="sy-page-spinner" />;
  if (content) return <MarkdownOrFrame content={content} title={t('nav.about')} />;
  return (
    <Card title={t('about.title')} className="sy-narrow">
      <Typography.Paragraph type="secondary">{t('about.empty')}</Typography.Paragraph>
      <Typography.Paragraph>{t('about.credit', { name: status.system_name || DEFAULT_SYSTEM_NAME, version: status.version ?? '' })}</Typography.Paragraph>
    </Card>
  );
}
