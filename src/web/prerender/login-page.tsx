/**
 * The build's entry for the prerendered sign-in page (`scripts/prerender-login.ts`): the
 * console at /login as a guest sees it on a first visit (Chinese, light theme, no stored
 * status, a desktop width), as HTML. The browser hydrates it (`console-root.tsx`), so the
 * form shows and takes typing before the console's scripts have run.
 */
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { ConsoleApp } from '../app';
import { PAGES } from '../pages';
import { PRERENDERED_PAGE } from '../../shared/prerendered-page';

export { earlyScript, LOGIN_STYLESHEET_ATTRIBUTE } from './held-submit';

/** antd's record of the styles a stylesheet holds, which extractStyle puts last. */
const CACHE_PATH_RULE = /\.data-ant-cssinjs-cache-path\{content:"[^"]*";\}\s*$/;

/**
 * The page's markup, and the antd styles that markup uses (in the console's light theme):
 * the page's only antd stylesheet until it has been painted, in place of the build's whole
 * one (~740 KB, whose parsing held the first paint back). The whole one is applied before the
 * console hydrates, and its record (what antd reads to skip making styles) is the one that
 * counts, so this stylesheet carries none.
 */
export async function renderLoginPage(): Promise<{ markup: string; css: string }> {
  // Loaded first, so the page renders at once rather than suspending (`lazy-chunk.tsx`), as the entry does in the browser.
  await PAGES[PRERENDERED_PAGE.path].component.load();
  const cache = createCache();
  const markup = renderToString(
    <StrictMode>
      <StyleProvider cache={cache}>
        <ConsoleApp location={PRERENDERED_PAGE.path} />
      </StyleProvider>
    </StrictMode>,
  );
  const css = extractStyle(cache, { plain: true, types: ['style', 'token'] });
  if (!CACHE_PATH_RULE.test(css)) throw new Error("prerender: antd's style record not found where extractStyle puts it");
  return { markup, css: css.replace(CACHE_PATH_RULE, '') };
}
