/**
 * The console frame: top bar, side navigation (signed-in users; a drawer on phones),
 * the routed page and the footer.
 */
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout, Spin, theme } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { DEFAULT_SYSTEM_NAME } from '../state/public-status';
import { usePublicStatus } from '../state/status-context';
import { useStoredUser } from '../state/use-stored-user';
import { AppFooter } from './app-footer';
import { SideNav } from './side-nav';
import { TopBar } from './top-bar';
import { useIsMobile } from './use-is-mobile';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

export const SIDER_WIDTH = 200;
export const SIDER_COLLAPSED_WIDTH = 60;
const HEADER_HEIGHT = 56;

export function PageSpinner() {
  return (
    <div className="sy-page-spinner">
      <Spin />
    </div>
  );
}

export function AppLayout() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const status = usePublicStatus();
  const user = useStoredUser();
  const isMobile = useIsMobile();
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const systemName = status.system_name || DEFAULT_SYSTEM_NAME;

  useEffect(() => setDrawerOpen(false), [pathname]);
  useEffect(() => {
    document.title = systemName;
  }, [systemName]);

  const bar = { background: token.colorBgContainer, borderColor: token.colorBorderSecondary };
  return (
    <Layout className="sy-shell" style={{ minHeight: '100vh' }}>
      <Layout.Header className="sy-header" style={{ ...bar, height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px` }}>
        <TopBar onOpenMenu={() => setDrawerOpen(true)} />
      </Layout.Header>
      <Layout hasSider={Boolean(user) && !isMobile}>
        {user && !isMobile && (
          <Layout.Sider
            className="sy-sider"
            theme="light"
            width={SIDER_WIDTH}
            collapsedWidth={SIDER_COLLAPSED_WIDTH}
            collapsed={collapsed}
            trigger={null}
            style={{ ...bar, top: HEADER_HEIGHT, height: `calc(100vh - ${HEADER_HEIGHT}px)` }}
          >
            <div className="sy-sider-inner">
              <SideNav collapsed={collapsed} />
              <div className="sy-sider-toggle-bar" style={{ background: token.colorBgContainer }}>
                <Button
                  type="text"
                  icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                  onClick={() => setCollapsed(!collapsed)}
                  aria-label={t(collapsed ? 'header.expandSider' : 'header.collapseSider')}
                  data-testid="sider-toggle"
                />
              </div>
            </div>
          </Layout.Sider>
        )}
        <Layout className="sy-main">
          <Layout.Content className="sy-content" style={{ padding: isMobile ? 12 : 24 }}>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </Layout.Content>
          <Layout.Footer className="sy-footer-bar" style={{ background: 'transparent' }}>
            <AppFooter />
          </Layout.Footer>
        </Layout>
      </Layout>
      {isMobile && (
        <Drawer placement="left" open={drawerOpen} onClose={() => setDrawerOpen(false)} width={260} title={systemName} styles={{ body: { padding: 0 } }}>
          <SideNav withTopLinks onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      )}
    </Layout>
  );
}
