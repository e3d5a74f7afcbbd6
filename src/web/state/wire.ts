/**
 * The console's single instances of the transport, the data provider and the auth and
 * access-control providers, all over the declarations in `resources/`.
 */
import { RESOURCES } from '../../../resources';
import { clearStoredUser, createAccessControl, createAuthProvider, getStoredUser } from '../auth-provider';
import { createApi, createDataProvider, type WireDeps } from '../data-provider';
import i18n from '../i18n';

/** A 401 means the session is gone: forget the user and sign in again. */
function onUnauthorized(): void {
  clearStoredUser();
  if (window.location.pathname !== '/login') window.location.assign('/login?expired=true');
}

const deps: WireDeps = {
  fetch: (url, init) => window.fetch(url, init),
  userId: () => getStoredUser()?.id,
  translate: (key, options) => String(i18n.t(key, options)),
  onUnauthorized,
  resources: RESOURCES,
};

export const api = createApi(deps);
export const dataProvider = createDataProvider(deps, api);
export const authProvider = createAuthProvider(api, RESOURCES);
export const accessControlProvider = createAccessControl(RESOURCES);
