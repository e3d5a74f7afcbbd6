/**
 * The console: <Refine> over the one data provider, the resources of `resources/`, the
 * hand-written pages, i18n and the theme.
 */
import { Refine, type ResourceProps } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
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
import { i18nProvider } from './i18n';
import { AppLayout } from './layout/app-layout';
import { PAGES, type Access } from './pages';
import { NotFoundPage } from './pages/not-found-page';
import { StatusProvider } from './state/status-context';
import { ThemeModeProvider, useThemeMode } from './state/theme-context';
import { useToastNotificationProvider } from './state/toast-notifications';
import { accessControlProvider, authProvider, dataProvider } from './state/wire';

const ResourceScreen = lazy(async () => ({ default: (await import('./crud/resource-screen')).ResourceScreen }));

const MIN_ROLE: Record<Exclude<Access, 'public'>, number> = { user: ROLE_COMMON, admin: ROLE_ADMIN };

function guarded(access: Access, element: React.ReactNode) {
  return access === 'public' ? element : <RequireRole minRole={MIN_ROLE[access]}>{element}</RequireRole>;
}

function ConsoleRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {Object.entries(PAGES).map(([path, { access, component: Page }]) => (
          <Route key={path} path={path} element={guarded(access, <Page />)} />
        ))}
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
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

function RefineRoot() {
  const { t } = useTranslation();
  const resources: ResourceProps[] = RESOURCES.map((r) => ({
    name: r.name,
    list: r.routes.list,
    create: r.routes.create,
    edit: r.routes.edit,
    meta: { label: t(r.labelKey) },
  }));
  return (
    <Refine
      dataProvider={dataProvider}
      authProvider={authProvider}
      accessControlProvider={accessControlProvider}
      i18nProvider={i18nProvider}
      routerProvider={routerProvider}
      notificationProvider={useToastNotificationProvider}
      resources={resources}
      options={{ disableTelemetry: true, mutationMode: 'pessimistic', syncWithLocation: false, warnWhenUnsavedChanges: false }}
    >
      <ConsoleRoutes />
    </Refine>
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
          <RefineRoot />
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
