/**
 * The chunks the address the console opens on will render, started by the entry together
 * with the console itself (`main.tsx`), so they download while the console's scripts run
 * rather than after its first render asks for them. Only a head start: a guess that misses
 * (an address react-router matches differently) loads nothing wrong, the route loads what it
 * needs as before.
 */
import { SIGNED_IN_CHUNKS } from './chunks';
import { PAGES } from './pages';
import { PAGE_PATHS } from './pages/page-paths';
import { matchesPattern } from './route-pattern';
import { readText, STORAGE_KEYS } from './storage';

/** Starts loading what `pathname` shows; settles when it is in (or failed: the route retries). */
export function preloadScreen(pathname: string): Promise<unknown> {
  const path = PAGE_PATHS.find((p) => matchesPattern(p, pathname));
  const page = path ? PAGES[path] : undefined;
  if (page?.access === 'public') return page.component.load();
  // Any other address is the signed-in side's (or its "not found" screen); without a stored
  // user its guard sends the visitor to sign in.
  const signedIn = readText(STORAGE_KEYS.user) !== null;
  const screen = !signedIn ? PAGES['/login'].component : (page?.component ?? SIGNED_IN_CHUNKS.resourceScreen);
  const frame = signedIn ? [SIGNED_IN_CHUNKS.refine, SIGNED_IN_CHUNKS.sider, SIGNED_IN_CHUNKS.sideNav, SIGNED_IN_CHUNKS.userMenu] : [];
  // A list's first page is asked for as soon as the code that knows its query is in, and
  // always before the console's first render (its small chunk shares the list screen's code).
  const list = signedIn && !page ? [SIGNED_IN_CHUNKS.firstList.load().then((prefetchFirstList) => prefetchFirstList(pathname))] : [];
  return Promise.all([...[SIGNED_IN_CHUNKS.routes, ...frame, screen].map((c) => c.load()), ...list]);
}
