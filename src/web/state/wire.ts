/**
 * The console's single instances of the page transport and the auth and access-control
 * providers, all over the declarations in `resources/`. refine's data provider is made from
 * the same `wireDeps` in refine's own chunk (`refine-outlet.tsx`), so the public screens load
 * neither it nor its HTTP client.
 */
import { RESOURCES } from '../../../resources';
import { clearStoredUser, createAccessControl, createAuthProvider, getStoredUser } from '../auth-provider';
import i18n from '../i18n';
import { createApi } from '../wire/api';
import type { WireDeps } from '../wire/replies';

/** A 401 means the session is gone: forget the user and sign in again. */
function onUnauthorized(): void {
  clearStoredUser();
  if (window.location.pathname !== '/login') window.location.assign('/login?expired=true');
}

export const wireDeps: WireDeps = {
  fetch: (input, init) => window.fetch(input, init),
  origin: window.location.origin,
  userId: () => getStoredUser()?.id,
  translate: (key, options) => String(i18n.t(key, options)),
  onUnauthorized,
  resources: RESOURCES,
};

export const api = createApi(wireDeps);
export const authProvider = createAuthProvider(api, RESOURCES);
export const accessControlProvider = createAccessControl(RESOURCES);
