/** The signed-in user as a React value that follows login, logout and account deletion. */
import { useSyncExternalStore } from 'react';
import { getStoredUser, subscribeUser, type StoredUser } from '../auth-provider';

export function useStoredUser(): StoredUser | undefined {
  // Nobody is signed in on a prerendered page (`prerender/`).
  return useSyncExternalStore(subscribeUser, getStoredUser, () => undefined);
}
