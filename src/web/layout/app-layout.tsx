/**
 * The console frame: top bar, side navigation (signed-in users; a drawer on phones),
 * the routed page and the footer.
 */
import { Layout, Spin, theme } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { DEFAULT_SYSTEM_NAME } from '../state/public-status';
import { usePublicStatus } from '../state/status-context';
import { useStoredUser } from '../state/use-stored-user';
import { AppFooter } from './app-footer';
import { TopBar } from './top-bar';
import { useIsMobile } from './use-is-mobile';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

// Loaded when first shown (signed in, or the phone drawer opened): guests, sign-in first,
// need neither antd's Menu nor its Drawer.
const SiderNav = lazy(async () => ({ default: (await import('./side-nav')).SiderNav }));
const MobileNavDrawer = lazy(async () => ({ default: (await import('./side-nav')).MobileNavDrawer }));

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
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const status = usePublicStatus();
  const user = useStoredUser();
  const isMobile = useIsMobile();
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer stays mounted once opened, as antd's Drawer keeps its content after closing.
  const [drawerUsed, setDrawerUsed] = useState(false);
  const systemName = status.system_name || DEFAULT_SYSTEM_NAME;

  useEffect(() => setDrawerOpen(false), [pathname]);
  useEffect(() => {
    document.title = systemName;
  }, [systemName]);

  const openDrawer = () => {
    setDrawerUsed(true);
    setDrawerOpen(true);
  };

  const bar = { background: token.colorBgContainer, borderColor: token.colorBorderSecondary };
  return (
    <Layout className="sy-shell" style={{ minHeight: '100vh' }}>
      <Layout.Header className="sy-header" style={{ ...bar, height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px` }}>
        <TopBar onOpenMenu={openDrawer} />
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
            <Suspense fallback={null}>
              <SiderNav collapsed={collapsed} onToggle={() => setCollapsed(!collapsed)} />
            </Suspense>
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
      {isMobile && drawerUsed && (
        <Suspense fallback={null}>
          <MobileNavDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} title={systemName} />
        </Suspense>
      )}
    </Layout>
  );
}
