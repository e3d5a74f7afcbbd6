/**
 * The signed-in side's routes: the pages for users and admins and the resources' screens
 * under one refine outlet (so moving between them keeps refine mounted), and "not found" for
 * any other address. A chunk of its own, for every address that is not a public page: the
 * public pages, sign-in first, load neither these routes nor the resource declarations.
 */
// First: the signed-in screens' Chinese texts are in before any of them renders.
import './console-texts';
import { Route, Routes } from 'react-router';
import { RESOURCES } from '../../resources';
import { ROLE_ADMIN, ROLE_COMMON } from '../shared/roles';
import { SIGNED_IN_CHUNKS } from './chunks';
import { RequireRole } from './guards';
import { lazyChunk } from './lazy-chunk';
import { PAGES, type Access } from './pages';
import { useDayjsLocale } from './use-dayjs-locale';
import { NOT_FOUND_PAGE } from './pages/not-found-chunk';

const RefineOutlet = lazyChunk(SIGNED_IN_CHUNKS.refine);
const ResourceScreen = lazyChunk(SIGNED_IN_CHUNKS.resourceScreen);
const NotFoundPage = lazyChunk(NOT_FOUND_PAGE);

const MIN_ROLE: Record<Exclude<Access, 'public'>, number> = { user: ROLE_COMMON, admin: ROLE_ADMIN };

const SIGNED_IN_PAGES = Object.entries(PAGES).flatMap(([path, { access, component }]) => (access === 'public' ? [] : [{ path, minRole: MIN_ROLE[access], Page: lazyChunk(component) }]));

export function SignedInRoutes() {
  useDayjsLocale();
  return (
    <Routes>
      <Route element={<RefineOutlet />}>
        {SIGNED_IN_PAGES.map(({ path, minRole, Page }) => (
          <Route
            key={path}
            path={path}
            element={
              <RequireRole minRole={minRole}>
                <Page />
              </RequireRole>
            }
          />
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
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
