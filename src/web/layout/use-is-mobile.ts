/** True at or below the mobile breakpoint (600 px, docs/console.md#language-and-theme). */
import { useSyncExternalStore } from 'react';

export const MOBILE_BREAKPOINT = 600;
export const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT}px)`;

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(MOBILE_QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export function useIsMobile(): boolean {
  // A prerendered page was laid out for a desktop: hydrated as such, then measured.
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}
