/**
 * i18next for the console: Chinese is the default and the fallback, English is complete.
 * The choice is kept locally under `language`. The `server` namespace translates the
 * server's Chinese messages (its keys are those exact strings); unknown ones show as sent.
 *
 * Only Chinese is bundled with the entry, and of it only the frame's and the public pages'
 * texts: the signed-in screens' come with them (`console-texts.ts`); the English texts are a
 * chunk of their own, loaded when English is stored or chosen, so the first page of a Chinese
 * visitor carries neither. `i18nReady` settles once the stored language's texts are there; the console renders
 * after it, so an English visitor never sees Chinese first.
 */
import i18n from 'i18next';
import type { I18nProvider } from '@refinedev/core';
import zh from './locales/zh.json';
import { readText, STORAGE_KEYS, writeText } from './storage';

export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

function storedLanguage(): Language {
  const saved = readText(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : 'zh';
}

/** Adds a language's texts once; Chinese is always there. */
async function loadLanguage(lang: Language): Promise<void> {
  if (lang === 'zh' || i18n.hasResourceBundle('en', 'translation')) return;
  const [en, serverEn] = await Promise.all([import('./locales/en.json'), import('./locales/server-en.json')]);
  i18n.addResourceBundle('en', 'server', serverEn.default);
  // Last: `hasResourceBundle` above turns true only once both namespaces are in.
  i18n.addResourceBundle('en', 'translation', en.default);
}

const initial = storedLanguage();

void i18n.init({
  resources: {
    zh: { translation: zh },
  },
  // Chinese until the stored language's texts are in (`i18nReady`); nothing renders before.
  lng: 'zh',
  fallbackLng: 'zh',
  ns: ['translation', 'server'],
  defaultNS: 'translation',
  // Server messages are whole sentences that may contain colons (and dots: looked up with
  // keySeparator false, see wire/replies.ts).
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

function markDocument(lang: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

markDocument(initial);

/**
 * Settles when the stored language is active. A failed load (network) leaves Chinese, the
 * fallback, rather than no console at all.
 */
export const i18nReady: Promise<void> =
  initial === 'zh'
    ? Promise.resolve()
    : loadLanguage(initial)
        .then(() => i18n.changeLanguage(initial))
        .then(
          () => undefined,
          () => markDocument('zh'),
        );

export function currentLanguage(): Language {
  return (i18n.resolvedLanguage ?? i18n.language) === 'en' ? 'en' : 'zh';
}

export async function changeLanguage(lang: Language): Promise<void> {
  await loadLanguage(lang);
  writeText(STORAGE_KEYS.language, lang);
  markDocument(lang);
  await i18n.changeLanguage(lang);
}

export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) => String(i18n.t(key, { defaultValue: defaultMessage, ...(options as object) })),
  changeLocale: (lang) => changeLanguage(lang === 'en' ? 'en' : 'zh'),
  getLocale: () => currentLanguage(),
};

export default i18n;
