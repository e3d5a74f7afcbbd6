/**
 * Renders the console into `#root`: loaded by the entry (`main.tsx`) beside the first
 * screen's chunk.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './i18n';
import './styles.css';
import { ConsoleApp } from './app';

/** After the stored language's texts are in (English is loaded apart), so the first paint is already in that language. */
export async function renderConsole(): Promise<void> {
  await i18nReady;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ConsoleApp />
    </StrictMode>,
  );
}
