/**
 * The console frame: top bar, side navigation (signed-in users; a drawer on phones),
 * the routed page and the footer.
 */
import { theme } from 'antd';
// The layout without its Sider (signed-in users only, see SIGNED_IN_CHUNKS).
import Layout, { Content, Footer, Header } from 'antd/es/layout/layout';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SIGNED_IN_CHUNKS } from '../chunks';
import { lazyChunk } from '../lazy-chunk';
import { DEFAULT_SYSTEM_NAME } from '../state/public-status';
import { usePublicStatus } from '../state/status-context';
import { useStoredUser } from '../state/use-stored-user';
import { AppFooter } from './app-footer';
import { TopBar } from './top-bar';
import { useIsMobile } from './use-is-mobile';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

// Loaded when first shown (signed in, or the phone drawer opened): guests, sign-in first,
// need neither antd's Sider nor its Menu nor its Drawer. A signed-in visit loads the first
// two with its first screen (`screen-preload.ts`).
const Sider = lazyChunk(SIGNED_IN_CHUNKS.sider);
const SiderNav = lazyChunk(SIGNED_IN_CHUNKS.sideNav);
const MobileNavDrawer = lazy(async () => ({ default: (await import('./side-nav')).MobileNavDrawer }));

export const SIDER_WIDTH = 200;
export const SIDER_COLLAPSED_WIDTH = 60;
const HEADER_HEIGHT = 56;

// Needed only once a screen has to be waited for (the first one is loaded before the first
// render, see main.tsx): its code loads then, and the box shows empty for that moment.
const Spin = lazy(() => import('antd/es/spin'));

export function PageSpinner() {
  return (
    <div className="sy-page-spinner">
      <Suspense fallback={null}>
        <Spin />
      </Suspense>
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
      <Header className="sy-header" style={{ ...bar, height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px` }}>
        <TopBar onOpenMenu={openDrawer} />
      </Header>
      <Layout hasSider={Boolean(user) && !isMobile}>
        {user && !isMobile && (
          // Not preloaded only right after signing in: the page shows without it for that moment.
          <Suspense fallback={null}>
            <Sider
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
            </Sider>
          </Suspense>
        )}
        <Layout className="sy-main">
          <Content className="sy-content" style={{ padding: isMobile ? 12 : 24 }}>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </Content>
          <Footer className="sy-footer-bar" style={{ background: 'transparent' }}>
            <AppFooter />
          </Footer>
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
