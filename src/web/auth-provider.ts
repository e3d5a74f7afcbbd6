/**
 * Who is signed in, as the console knows it: the user record the login reply returned,
 * stored locally under `user` (docs/console.md#locally-stored-items). Logging in stores it, logging out or deleting
 * one's account clears it; permission checks compare its role with a resource's `minRole`.
 * The server re-checks every call, so this only decides what to show and where to go.
 */
import type { AccessControlProvider, AuthProvider } from '@refinedev/core';
import { ROLE_ADMIN, ROLE_COMMON } from '../shared/roles';
import type { ResourceDefinition } from '../shared/resources/definition';
import type { Api } from './wire/api';
import { readJson, readText, removeItem, STORAGE_KEYS, writeJson } from './storage';

export interface StoredUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
  /** Set by the login reply while root still uses the first-start password. */
  default_password?: boolean;
}

export interface LoginParams {
  username: string;
  password: string;
  /** The bot-check token, when the check is on. */
  turnstile?: string;
}

const listeners = new Set<() => void>();
let cached: { raw: string | null; user: StoredUser | undefined } = { raw: null, user: undefined };

/** The stored user; the same object until the stored text changes (for React snapshots). */
export function getStoredUser(): StoredUser | undefined {
  const raw = readText(STORAGE_KEYS.user);
  if (raw !== cached.raw) {
    const user = readJson<StoredUser>(STORAGE_KEYS.user);
    cached = { raw, user: user && typeof user.id === 'number' ? user : undefined };
  }
  return cached.user;
}

/** Calls `listener` whenever this tab stores or clears the user. */
export function subscribeUser(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function storeUser(user: StoredUser): void {
  writeJson(STORAGE_KEYS.user, user);
  listeners.forEach((l) => l());
}

export function clearStoredUser(): void {
  removeItem(STORAGE_KEYS.user);
  listeners.forEach((l) => l());
}

export function hasRole(user: Pick<StoredUser, 'role'> | undefined, minRole: number): boolean {
  return (user?.role ?? 0) >= minRole;
}

export const isAdmin = (user: Pick<StoredUser, 'role'> | undefined) => hasRole(user, ROLE_ADMIN);

/**
 * Where a password login lands: the API tokens page (docs/console.md#account-pages) once that screen is
 * declared (`listPaths`: the resources' list paths), otherwise the personal page.
 */
export function landingAfterLogin(listPaths: readonly string[]): string {
  return listPaths.includes('/token') ? '/token' : '/personal';
}

/** `POST /api/user/login`; stores the returned user. Throws the server's message. */
export async function login(api: Api, params: LoginParams): Promise<StoredUser> {
  const user = await api.request<StoredUser>('post', '/api/user/login', {
    query: { turnstile: params.turnstile ?? '' },
    body: { username: params.username, password: params.password },
  });
  storeUser(user);
  return user;
}

/** `GET /api/user/logout`, then forgets the user whatever the server said. */
export async function logout(api: Api): Promise<void> {
  try {
    await api.request('get', '/api/user/logout');
  } finally {
    clearStoredUser();
  }
}

export function createAuthProvider(api: Api, resources: ResourceDefinition[]): AuthProvider {
  return {
    async login(params: LoginParams) {
      try {
        await login(api, params);
        return { success: true, redirectTo: landingAfterLogin(resources.map((r) => r.routes.list)) };
      } catch (error) {
        return { success: false, error: error as Error };
      }
    },
    async logout() {
      await logout(api).catch(() => undefined);
      return { success: true, redirectTo: '/login' };
    },
    async check() {
      return getStoredUser() ? { authenticated: true } : { authenticated: false, redirectTo: '/login', logout: true };
    },
    // Both clients already send a 401 to /login?expired=true (wire/replies.ts); nothing more to do here.
    async onError() {
      return {};
    },
    async getIdentity() {
      return getStoredUser() ?? null;
    },
    async getPermissions() {
      return getStoredUser()?.role ?? null;
    },
  };
}

/** The minimum role a resource needs (ordinary users for undeclared ones). */
export function minRoleOf(resources: ResourceDefinition[], name: string | undefined): number {
  return resources.find((r) => r.name === name)?.minRole ?? ROLE_COMMON;
}

export function createAccessControl(resources: ResourceDefinition[]): AccessControlProvider {
  return {
    async can({ resource }) {
      return { can: hasRole(getStoredUser(), minRoleOf(resources, resource)) };
    },
  };
}
