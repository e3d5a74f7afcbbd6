/**
 * What the prerendered sign-in page and its early script (`scripts/prerender-login.ts` writes
 * it from `earlyScript` below) agree on. The script runs before the page is shown. It decides
 * whether the prerendered markup may show (`data-prerender` on <html>: "on", or "off" for a
 * visitor the markup was not made for: English, dark theme, signed in, a phone's width; their
 * console renders anew). Until the console has hydrated, it holds a submitted form (nothing
 * would handle it yet, and a native submit would put the password in the address), which the
 * sign-in page submits once it can.
 */
import { MOBILE_QUERY } from '../layout/use-is-mobile';
import { STORAGE_KEYS } from '../storage';

/** The name on `window` under which the early script hands the held form over, once. */
const TAKE = '__switchyardTakeHeldSubmit';

/**
 * The early script's source: plain ES5, as it runs before anything else. It also starts the
 * console (`entry`, the build's entry script, which the page preloads rather than runs): for a
 * visitor the markup fits, once the page has been painted (evaluating the console's scripts
 * takes a few hundred milliseconds of the main thread, and the browser, which would run them
 * as soon as the page is parsed, would paint the form only after); for anyone else at once.
 */
export function earlyScript(entry: string): string {
  const keys = JSON.stringify({ language: STORAGE_KEYS.language, theme: STORAGE_KEYS.theme, user: STORAGE_KEYS.user });
  return `(function () {
  var keys = ${keys}, html = document.documentElement, fits = true, started = false;
  function start() {
    if (started) return;
    started = true;
    import(${JSON.stringify(entry)});
  }
  try {
    var lang = localStorage.getItem(keys.language);
    fits = (lang === null || lang === 'zh') && localStorage.getItem(keys.theme) !== 'dark' && localStorage.getItem(keys.user) === null;
  } catch (e) {}
  // Laid out for a desktop: a phone gets its own layout from the console.
  if (window.matchMedia && window.matchMedia(${JSON.stringify(MOBILE_QUERY)}).matches) fits = false;
  html.setAttribute('data-prerender', fits ? 'on' : 'off');
  if (!fits) return start();
  // After the next frame is painted; a tab in the background paints none: there at once.
  if (document.visibilityState === 'hidden') start();
  requestAnimationFrame(function () { setTimeout(start, 0); });
  document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'hidden') start(); });
  var held = null;
  function hold(event) {
    event.preventDefault();
    event.stopPropagation();
    held = event.target;
  }
  document.addEventListener('submit', hold, true);
  window[${JSON.stringify(TAKE)}] = function () {
    document.removeEventListener('submit', hold, true);
    var form = held;
    held = null;
    return form;
  };
})();
`;
}

/** True when the markup in `root` was prerendered for this address and this visitor. */
export function mayHydrate(root: HTMLElement): boolean {
  return root.dataset.prerendered === window.location.pathname && document.documentElement.dataset.prerender === 'on';
}

/**
 * Ends the holding (submits go to the page from now on) and gives the form submitted before,
 * if any.
 */
export function takeHeldSubmit(): HTMLFormElement | null {
  const take = (window as unknown as Record<string, (() => HTMLFormElement | null) | undefined>)[TAKE];
  return take ? take() : null;
}
