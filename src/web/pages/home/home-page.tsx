/**
 * `/`: the configured HomePageContent (Markdown, or a URL shown in a frame); without one,
 * a welcome with the site's status and sign-in methods. The site notice opens above it.
 */
import { Button, Card, Col, Descriptions, Row, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from '../../use-translation';
import { Link } from 'react-router';
import { MarkdownOrFrame } from '../../components/markdown-or-frame';
import { NoticeDialog } from '../../components/notice-dialog';
import { useContent } from '../../components/use-content';
import { buildTopLinks } from '../../layout/nav-model';
import { isRouted } from '../../routes';
import { formatTimestamp } from '../../crud/format-time';
import { DEFAULT_LOGO, DEFAULT_SYSTEM_NAME } from '../../state/public-status';
import { usePublicStatus } from '../../state/status-context';
import { useStoredUser } from '../../state/use-stored-user';

function Switch({ on }: { on: boolean | undefined }) {
  const { t } = useTranslation();
  return <Tag color={on ? 'green' : 'default'}>{t(on ? 'home.enabled' : 'home.disabled')}</Tag>;
}

function DefaultHome() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const user = useStoredUser();
  const name = status.system_name || DEFAULT_SYSTEM_NAME;
  const consoleLink = buildTopLinks({ status, role: user?.role ?? 0, isRouted }).find((l) => l.key === 'console');
  return (
    <Space direction="vertical" size={24} style={{ width: '100%' }}>
      <div className="sy-hero">
        <img src={status.logo || DEFAULT_LOGO} alt="" width={64} height={64} />
        <Typography.Title level={2} style={{ margin: 0 }}>
          {name}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ maxWidth: 560, margin: 0 }}>
          {t('home.tagline')}
        </Typography.Paragraph>
        <Space wrap>
          {consoleLink && (
            <Link to={user ? consoleLink.path : '/login'}>
              <Button type="primary" size="large">
                {t(user ? 'home.openConsole' : 'home.signIn')}
              </Button>
            </Link>
          )}
          {status.docs_link && (
            <Button size="large" href={status.docs_link} target="_blank">
              {t('nav.docs')}
            </Button>
          )}
        </Space>
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card title={t('home.statusTitle')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('home.name')}>{name}</Descriptions.Item>
              <Descriptions.Item label={t('home.version')}>{status.version || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('home.startTime')}>{formatTimestamp(status.start_time) || '-'}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={t('home.configTitle')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('home.emailVerification')}>
                <Switch on={status.email_verification} />
              </Descriptions.Item>
              <Descriptions.Item label={t('home.github')}>
                <Switch on={status.github_oauth} />
              </Descriptions.Item>
              <Descriptions.Item label={t('home.wechat')}>
                <Switch on={status.wechat_login} />
              </Descriptions.Item>
              <Descriptions.Item label={t('home.turnstile')}>
                <Switch on={status.turnstile_check} />
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>
    </Space>
  );
}

export function HomePage() {
  const { t } = useTranslation();
  const { content, loading } = useContent('/api/home_page_content');
  return (
    <>
      <NoticeDialog />
      {loading ? <Spin className="sy-page-spinner" /> : content ? <MarkdownOrFrame content={content} title={t('nav.home')} /> : <DefaultHome />}
    </>
  );
}
