/**
 * The `version-check` section action: compares the running version (public status) with
 * the latest release the code host publishes, fetched by the browser. Without access to
 * that host (a closed network) it says the check failed; it never pretends.
 */
import { SyncOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { MarkdownOrFrame } from '../../components/markdown-or-frame';
import { usePublicStatus } from '../../state/status-context';
import { useApp } from '../../state/feedback-app';

/** The latest-release endpoint of the project's repository (GitHub's REST shape). */
export const RELEASES_URL = 'https://api.github.com/repos/switchyard-gateway/switchyard/releases/latest';

interface Release {
  tag_name?: string;
  name?: string;
  body?: string;
  html_url?: string;
}

export function VersionCheck() {
  const { t } = useTranslation();
  const { modal } = useApp();
  const version = usePublicStatus().version ?? '';
  const [check, busy] = useAction(
    async () => {
      const response = await fetch(RELEASES_URL, { headers: { Accept: 'application/vnd.github+json' } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const release = (await response.json()) as Release;
      if (!release.tag_name) throw new Error('no tag');
      if (release.tag_name === version) return true;
      modal.info({
        width: 640,
        title: t('settings.version.available', { version: release.tag_name }),
        content: <MarkdownOrFrame content={release.body || release.name || release.tag_name} title={release.tag_name} />,
        okText: t('settings.version.open'),
        onOk: () => void window.open(release.html_url, '_blank', 'noopener'),
      });
      return false;
    },
    { success: (latest) => (latest ? t('settings.version.latest') : undefined), error: () => t('settings.version.failed') },
  );

  return (
    <div className="sy-settings-action" data-testid="version-check">
      <Typography.Text strong>{t('settings.version.title')}</Typography.Text>
      <Space wrap style={{ display: 'flex', marginTop: 8 }}>
        <Typography.Text>{t('settings.version.current', { version: version || '-' })}</Typography.Text>
        <Button icon={<SyncOutlined />} loading={busy} onClick={() => void check()}>
          {t('settings.version.check')}
        </Button>
      </Space>
    </div>
  );
}
