/**
 * The console: the hand-written pages and the resources of `resources/` under the layout,
 * refine around the signed-in ones (`signed-in-routes.tsx`, `refine-outlet.tsx`), i18n and
 * the theme.
 */
import { ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect } from 'react';
import { useTranslation } from './use-translation';
import { BrowserRouter, Route, Routes, StaticRouter } from 'react-router';
import { SIGNED_IN_CHUNKS } from './chunks';
import { AppLayout } from './layout/app-layout';
import { lazyChunk } from './lazy-chunk';
import { PAGES } from './pages';
import { FeedbackApp } from './state/feedback-app';
import { StatusProvider } from './state/status-context';
import { ThemeModeProvider, useThemeMode } from './state/theme-context';
import { themeConfig } from './theme';

const PUBLIC_PAGES = Object.entries(PAGES).flatMap(([path, { access, component }]) => (access === 'public' ? [{ path, Page: lazyChunk(component) }] : []));
const SignedInRoutes = lazyChunk(SIGNED_IN_CHUNKS.routes);

/**
 * The public pages (home, sign-in, pricing ...) sit outside refine and must not use its
 * hooks; every other address is the signed-in side's (`signed-in-routes.tsx`, a chunk the
 * public pages do not load), which also answers "not found".
 */
function ConsoleRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {PUBLIC_PAGES.map(({ path, Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<SignedInRoutes />} />
      </Route>
    </Routes>
  );
}

function ThemedApp() {
  const { mode } = useThemeMode();
  const { i18n } = useTranslation();
  const zh = i18n.language !== 'en';
  return (
    <ConfigProvider locale={zh ? zhCN : enUS} button={{ autoInsertSpace: false }} theme={themeConfig(mode)}>
      <FeedbackApp>
        <StatusProvider>
          <ConsoleRoutes />
        </StatusProvider>
      </FeedbackApp>
    </ConfigProvider>
  );
}

/** Marks <html> once the console's first render is in the page (`data-console="ready"`): a prerendered page is hydrated then. */
function markReady(): void {
  document.documentElement.dataset.console = 'ready';
}

/** `location`: the address to render at, for the build's prerendering (`prerender/`); the browser's otherwise. */
export function ConsoleApp({ location }: { location?: string }) {
  // The root's effects run last in a commit: the whole console is in by then.
  useEffect(markReady, []);
  const app = (
    <ThemeModeProvider>
      <ThemedApp />
    </ThemeModeProvider>
  );
  return location === undefined ? <BrowserRouter>{app}</BrowserRouter> : <StaticRouter location={location}>{app}</StaticRouter>;
}
