/**
 * The console: the hand-written pages and the resources of `resources/` under the layout,
 * refine around the signed-in ones (`refine-outlet.tsx`), i18n and the theme.
 */
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Route, Routes } from 'react-router';
import { RESOURCES } from '../../resources';
import { ROLE_ADMIN, ROLE_COMMON } from '../shared/roles';
import { RequireRole } from './guards';
import { AppLayout } from './layout/app-layout';
import { PAGES, type Access } from './pages';
import { StatusProvider } from './state/status-context';
import { ThemeModeProvider, useThemeMode } from './state/theme-context';

const ResourceScreen = lazy(async () => ({ default: (await import('./crud/resource-screen')).ResourceScreen }));
// Its own chunk too: antd's Result is needed only when an address is wrong.
const NotFoundPage = lazy(async () => ({ default: (await import('./pages/not-found-page')).NotFoundPage }));
const RefineOutlet = lazy(async () => ({ default: (await import('./refine-outlet')).RefineOutlet }));

const MIN_ROLE: Record<Exclude<Access, 'public'>, number> = { user: ROLE_COMMON, admin: ROLE_ADMIN };

const PAGE_ENTRIES = Object.entries(PAGES);

/**
 * The public pages (home, sign-in, pricing ...) sit outside refine and must not use its
 * hooks; the signed-in ones and the CRUD screens sit under one refine outlet, so moving
 * between them keeps refine mounted.
 */
function ConsoleRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {PAGE_ENTRIES.filter(([, { access }]) => access === 'public').map(([path, { component: Page }]) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route element={<RefineOutlet />}>
          {PAGE_ENTRIES.map(([path, { access, component: Page }]) =>
            access === 'public' ? null : (
              <Route
                key={path}
                path={path}
                element={
                  <RequireRole minRole={MIN_ROLE[access]}>
                    <Page />
                  </RequireRole>
                }
              />
            ),
          )}
          {RESOURCES.flatMap((resource) =>
            [resource.routes.list, resource.routes.create, resource.routes.edit]
              .filter((path): path is string => Boolean(path))
              .map((path) => (
                <Route
                  key={path}
                  path={path}
                  element={
                    <RequireRole minRole={resource.minRole}>
                      <ResourceScreen name={resource.name} />
                    </RequireRole>
                  }
                />
              )),
          )}
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

function ThemedApp() {
  const { mode } = useThemeMode();
  const { i18n } = useTranslation();
  const zh = i18n.language !== 'en';
  useEffect(() => {
    dayjs.locale(zh ? 'zh-cn' : 'en');
  }, [zh]);
  return (
    <ConfigProvider
      locale={zh ? zhCN : enUS}
      button={{ autoInsertSpace: false }}
      theme={{
        algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { colorPrimary: '#2563eb', borderRadius: 8 },
      }}
    >
      <AntdApp>
        <StatusProvider>
          <ConsoleRoutes />
        </StatusProvider>
      </AntdApp>
    </ConfigProvider>
  );
}

export function ConsoleApp() {
  return (
    <BrowserRouter>
      <ThemeModeProvider>
        <ThemedApp />
      </ThemeModeProvider>
    </BrowserRouter>
  );
}
