/**
 * i18next for the console: Chinese is the default and the fallback, English is complete.
 * The choice is kept locally under `language`. The `server` namespace translates the
 * server's Chinese messages (its keys are those exact strings); unknown ones show as sent.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { I18nProvider } from '@refinedev/core';
import zh from './locales/zh.json';
import en from './locales/en.json';
import serverEn from './locales/server-en.json';
import { readText, STORAGE_KEYS, writeText } from './storage';

export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

function storedLanguage(): Language {
  const saved = readText(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : 'zh';
}

void i18n.use(initReactI18next).init({
  resources: {
    zh: { translation: zh },
    en: { translation: en, server: serverEn },
  },
  lng: storedLanguage(),
  fallbackLng: 'zh',
  ns: ['translation', 'server'],
  defaultNS: 'translation',
  // Server messages are whole sentences that may contain colons (and dots: looked up with
  // keySeparator false, see the data provider).
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = storedLanguage() === 'zh' ? 'zh-CN' : 'en';

export function currentLanguage(): Language {
  return (i18n.resolvedLanguage ?? i18n.language) === 'en' ? 'en' : 'zh';
}

export async function changeLanguage(lang: Language): Promise<void> {
  writeText(STORAGE_KEYS.language, lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  await i18n.changeLanguage(lang);
}

export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) => String(i18n.t(key, { defaultValue: defaultMessage, ...(options as object) })),
  changeLocale: (lang) => changeLanguage(lang === 'en' ? 'en' : 'zh'),
  getLocale: () => currentLanguage(),
};

export default i18n;
