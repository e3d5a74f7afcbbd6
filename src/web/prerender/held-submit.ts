/**
 * What the prerendered sign-in page and its early script (`scripts/prerender-login.ts` writes
 * it from `earlyScript` below) agree on. The script runs before the page is shown: it decides
 * whether the prerendered markup may show (`data-prerender` on <html>: "on", or "off" for a
 * visitor the markup was not made for, whose console renders anew), and until the console
 * has hydrated it holds a submitted form (nothing would handle it yet, and a native submit
 * would put the password in the address), which the sign-in page submits once it can.
 */
import { STORAGE_KEYS } from '../storage';

export const PRERENDERED_PATH = '/login';

/** The name on `window` under which the early script hands the held form over, once. */
const TAKE = '__switchyardTakeHeldSubmit';

/** The early script's source: plain ES5, as it runs before anything else. */
export function earlyScript(): string {
  const keys = JSON.stringify({ language: STORAGE_KEYS.language, theme: STORAGE_KEYS.theme, user: STORAGE_KEYS.user });
  return `(function () {
  var keys = ${keys}, html = document.documentElement, fits = true;
  try {
    var lang = localStorage.getItem(keys.language);
    fits = (lang === null || lang === 'zh') && localStorage.getItem(keys.theme) !== 'dark' && localStorage.getItem(keys.user) === null;
  } catch (e) {}
  html.setAttribute('data-prerender', fits ? 'on' : 'off');
  if (!fits) return;
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
