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

/** Marks the page's own antd styles (the sign-in form's), after which the whole stylesheet goes. */
export const LOGIN_STYLESHEET_ATTRIBUTE = 'data-login-styles';

/** The name on `window` under which the early script hands the held form over, once. */
const TAKE = '__switchyardTakeHeldSubmit';

/**
 * The early script's source: plain ES5, as it runs before anything else, inline in the page
 * (whose CSP allows it by its hash), so the page is parsed on without waiting for a file.
 *
 * It also starts the console (`entry`, the build's entry script, which the page preloads
 * rather than runs): for a visitor the markup fits, once the form has been painted
 * (evaluating the console's scripts takes a few hundred milliseconds of the main thread, and
 * the browser, which would run them as soon as the page is parsed, would paint the form only
 * after); for anyone else at once.
 *
 * The page's antd styles are only the sign-in form's; `stylesheet` is the build's whole antd
 * stylesheet (preloaded by the page), which the console needs. Starting applies it, in the
 * place of the page's (before the console's own styles, which override antd's), and runs the
 * entry once it has loaded: antd reads, when it first renders, which styles the page's
 * stylesheets hold, and makes the others at run time.
 */
export function earlyScript(entry: string, stylesheet: string): string {
  const keys = JSON.stringify({ language: STORAGE_KEYS.language, theme: STORAGE_KEYS.theme, user: STORAGE_KEYS.user });
  return `(function () {
  var keys = ${keys}, html = document.documentElement, fits = true, started = false;
  function run() {
    import(${JSON.stringify(entry)});
  }
  // The page's own styles are parsed after this script: a visitor started at once waits for them.
  function applyStylesheet() {
    var own = document.querySelector(${JSON.stringify(`[${LOGIN_STYLESHEET_ATTRIBUTE}]`)});
    if (!own) {
      if (document.readyState === 'loading') return document.addEventListener('DOMContentLoaded', applyStylesheet);
      return run();
    }
    var link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = ${JSON.stringify(stylesheet)};
    link.onload = link.onerror = run;
    own.parentNode.insertBefore(link, own.nextSibling);
  }
  function start() {
    if (started) return;
    started = true;
    applyStylesheet();
  }
  try {
    var lang = localStorage.getItem(keys.language);
    fits = (lang === null || lang === 'zh') && localStorage.getItem(keys.theme) !== 'dark' && localStorage.getItem(keys.user) === null;
  } catch (e) {}
  // Laid out for a desktop: a phone gets its own layout from the console.
  if (window.matchMedia && window.matchMedia(${JSON.stringify(MOBILE_QUERY)}).matches) fits = false;
  html.setAttribute('data-prerender', fits ? 'on' : 'off');
  if (!fits) return start();
  // Once the form has been painted (a frame's callbacks may come before the page is parsed).
  // A tab in the background paints nothing: there at once.
  if (document.visibilityState === 'hidden') start();
  document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'hidden') start(); });
  var painted = false;
  try {
    new PerformanceObserver(function (list, observer) {
      var entries = list.getEntries();
      for (var i = 0; i < entries.length; i++) if (entries[i].name === 'first-contentful-paint') painted = true;
      if (painted) {
        observer.disconnect();
        setTimeout(start, 0);
      }
    }).observe({ type: 'paint' });
  } catch (e) {}
  // A browser that reports no paint: one frame after the page is parsed. Any: 3 s after, at the latest.
  document.addEventListener('DOMContentLoaded', function () {
    if (!window.PerformanceObserver || (PerformanceObserver.supportedEntryTypes || []).indexOf('paint') < 0) requestAnimationFrame(function () { setTimeout(start, 0); });
    setTimeout(start, 3000);
  });
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
