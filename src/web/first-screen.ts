/**
 * Starts loading the screen of the address the console opens on (`screen-preload.ts`) as
 * soon as this module runs: the entry imports it first, so it runs before the console's own
 * modules are evaluated (imports run in order), and the screen's chunks download meanwhile.
 */
import { preloadScreen } from './screen-preload';

/** Settles once the first screen's chunks are in; a failed load is not fatal (the route loads again and shows the failure). */
export const firstScreenReady: Promise<unknown> = preloadScreen(window.location.pathname).catch(() => undefined);
