/**
 * The sign-in page is prerendered at build time (`scripts/prerender-login.ts`) and hydrated
 * in the browser: the hydrating render must produce the very markup the build wrote, which
 * knew nothing of this browser (no stored status, a desktop width). `useHydrating()` is true
 * in that render (and in the build's), false in every other; React renders again at once
 * after hydration wherever it was true, so a component reads what only the browser knows
 * then. `useSyncExternalStore`'s server snapshot is React's own switch for this.
 */
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

export function useHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}
