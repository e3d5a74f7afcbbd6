/**
 * The console's translation hook: `t` for the current language (`i18n.ts`), and a re-render of
 * the component when the language changes. What react-i18next's `useTranslation()` gives the
 * console (one namespace, texts bundled or loaded before the switch, so nothing to suspend
 * for), in a few lines instead of a package on every page's critical path.
 */
import { useMemo, useSyncExternalStore } from 'react';
import i18n, { type TFunction } from 'i18next';

function subscribe(onChange: () => void): () => void {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

const language = () => i18n.language;

/** `t` changes identity with the language, so effects and memos that use it run again. */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  // The same on a prerendered page (`prerender/`): it is hydrated only in its own language.
  const lng = useSyncExternalStore(subscribe, language, language);
  const t = useMemo(() => i18n.getFixedT(lng), [lng]);
  return { t, i18n };
}
