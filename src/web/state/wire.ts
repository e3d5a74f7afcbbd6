/**
 * The console's single page transport (`api`) and what it sends with (`transportDeps`). No
 * resource declarations here: the public screens, sign-in first, use `api` and must not load
 * them; refine's providers over the declarations are `resource-wire.ts`, in refine's chunk.
 */
import { clearStoredUser, getStoredUser } from '../auth-provider';
import i18n from '../i18n';
import { createApi } from '../wire/api';
import { takePrefetched } from '../wire/prefetch';
import type { TransportDeps } from '../wire/replies';

/** A 401 means the session is gone: forget the user and sign in again. */
function onUnauthorized(): void {
  clearStoredUser();
  if (window.location.pathname !== '/login') window.location.assign('/login?expired=true');
}

export const transportDeps: TransportDeps = {
  // A GET the entry started ahead (wire/prefetch.ts) is answered with that response.
  fetch: (input, init) => takePrefetched(input, init) ?? window.fetch(input, init),
  // Read when asked: the sign-in page is also rendered at build time, where there is no window.
  get origin() {
    return window.location.origin;
  },
  userId: () => getStoredUser()?.id,
  translate: (key, options) => String(i18n.t(key, options)),
  onUnauthorized,
};

export const api = createApi(transportDeps);
