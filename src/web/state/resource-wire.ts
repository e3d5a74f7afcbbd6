/**
 * refine's auth and access-control providers and the data provider's dependencies, over the
 * declarations in `resources/`: loaded with the signed-in screens only (see `wire.ts`).
 */
import { RESOURCES } from '../../../resources';
import { createAccessControl, createAuthProvider } from '../auth-provider';
import type { WireDeps } from '../wire/replies';
import { api, transportDeps } from './wire';

export const wireDeps: WireDeps = { ...transportDeps, resources: RESOURCES };
export const authProvider = createAuthProvider(api, RESOURCES);
export const accessControlProvider = createAccessControl(RESOURCES);
