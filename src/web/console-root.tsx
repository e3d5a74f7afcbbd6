/**
 * Renders the console into `#root`: loaded by the entry (`main.tsx`) beside the first
 * screen's chunk. A page the build prerendered (`prerender/`) is hydrated, its markup kept,
 * when it was made for this visitor; anything else is rendered anew.
 */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { i18nReady } from './i18n';
import './styles.css';
import { ConsoleApp } from './app';
import { mayHydrate } from './prerender/held-submit';

/** After the stored language's texts are in (English is loaded apart), so the first paint is already in that language. */
export async function renderConsole(): Promise<void> {
  await i18nReady;
  const root = document.getElementById('root')!;
  const app = (
    <StrictMode>
      <ConsoleApp />
    </StrictMode>
  );
  if (mayHydrate(root)) {
    // A markup that does not match is rendered anew by React itself; it is noted for the tests.
    hydrateRoot(root, app, { onRecoverableError: (error) => noteHydrationError(error) });
    return;
  }
  root.replaceChildren();
  delete root.dataset.prerendered;
  createRoot(root).render(app);
}

function noteHydrationError(error: unknown): void {
  const list = ((window as unknown as { __hydrationErrors?: string[] }).__hydrationErrors ??= []);
  list.push(String((error as Error)?.message ?? error));
  console.error(error);
}
