/** User roles, statuses and the other small enumerations both sides use. */

export const ROLE_GUEST = 0;
export const ROLE_COMMON = 1;
export const ROLE_ADMIN = 10;
export const ROLE_ROOT = 100;

export type Role = typeof ROLE_GUEST | typeof ROLE_COMMON | typeof ROLE_ADMIN | typeof ROLE_ROOT;

export function isValidRole(role: number): role is Role {
  return role === ROLE_GUEST || role === ROLE_COMMON || role === ROLE_ADMIN || role === ROLE_ROOT;
}

export const USER_STATUS_ENABLED = 1;
export const USER_STATUS_DISABLED = 2;

/** Log entry types. */
export const LOG_TYPE = { unknown: 0, topup: 1, consume: 2, manage: 3, system: 4 } as const;
