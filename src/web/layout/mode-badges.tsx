/** The Self-use and Demo badges of the top bar (docs/console.md#top-bar), loaded when the status shows either. */
import { Space, Tag } from 'antd';
import { useTranslation } from '../use-translation';
import { usePublicStatus } from '../state/status-context';

export function ModeBadges({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const status = usePublicStatus();
  if (!status.self_use_mode_enabled && !status.demo_site_enabled) return null;
  return (
    <Space size={4}>
      {status.self_use_mode_enabled && (
        <Tag color="purple" style={{ marginInlineEnd: 0 }}>
          {t(compact ? 'header.selfUseShort' : 'header.selfUse')}
        </Tag>
      )}
      {status.demo_site_enabled && (
        <Tag color="gold" style={{ marginInlineEnd: 0 }}>
          {t(compact ? 'header.demoShort' : 'header.demo')}
        </Tag>
      )}
    </Space>
  );
}
