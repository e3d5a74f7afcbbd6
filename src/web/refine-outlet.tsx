/**
 * refine (data, auth and access providers, resources, i18n, router, toasts) around the
 * signed-in screens: the CRUD screens and the pages that use its hooks. A chunk of its own,
 * so the public screens, sign-in first, load none of refine, react-query and their helpers.
 */
import { Refine, type ResourceProps } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { keepPreviousData, QueryClient } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { RESOURCES } from '../../resources';
import { i18nProvider } from './i18n';
import { useLabel } from './crud/use-label';
import { useToastNotificationProvider } from './state/toast-notifications';
import { accessControlProvider, authProvider, wireDeps } from './state/resource-wire';
import { createDataProvider } from './wire/data-provider';

/**
 * One query cache for the whole visit, as when refine sat at the root: this outlet unmounts
 * while a public screen shows, and refine would otherwise start an empty cache each time.
 * The options are refine's own defaults.
 */
const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, placeholderData: keepPreviousData } },
});

/** The one data provider (refine's REST provider over the console's HTTP client); see wire/. */
const dataProvider = createDataProvider(wireDeps);

export function RefineOutlet() {
  const t = useLabel();
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
      options={{
        disableTelemetry: true,
        mutationMode: 'pessimistic',
        syncWithLocation: false,
        warnWhenUnsavedChanges: false,
        reactQuery: { clientConfig: queryClient },
      }}
    >
      <Outlet />
    </Refine>
  );
}
