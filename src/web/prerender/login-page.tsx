/**
 * The build's entry for the prerendered sign-in page (`scripts/prerender-login.ts`): the
 * console at /login as a guest sees it on a first visit (Chinese, light theme, no stored
 * status, a desktop width), as HTML. The browser hydrates it (`console-root.tsx`), so the
 * form shows and takes typing before the console's scripts have run.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { ConsoleApp } from '../app';
import { PAGES } from '../pages';
import { PRERENDERED_PAGE } from '../../shared/prerendered-page';

export { earlyScript } from './held-submit';

export async function renderLoginPage(): Promise<string> {
  // Loaded first, so the page renders at once rather than suspending (`lazy-chunk.tsx`), as the entry does in the browser.
  await PAGES[PRERENDERED_PAGE.path].component.load();
  return renderToString(
    <StrictMode>
      <ConsoleApp location={PRERENDERED_PAGE.path} />
    </StrictMode>,
  );
}
