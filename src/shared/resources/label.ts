/**
 * The texts of a resource declaration. A text is either a locale key (`crud.actions.edit`),
 * for words several screens share and that live in the console's locale files, or the
 * text itself in both console languages, `{ zh: '优先级', en: 'Priority' }`, so a
 * declaration can bring its own words and stay the one file to edit. Both languages are
 * required by the type; `tests/unit/resource-labels.test.ts` refuses an empty one.
 */

/** A text written in the declaration, in Chinese (the default) and English. */
export interface Bilingual {
  zh: string;
  en: string;
}

/** A locale key or an inline `{ zh, en }` text. */
export type Label = string | Bilingual;

/** Looks up a locale key (with its parameters) in the current language. */
export type TranslateKey = (key: string, params?: Record<string, unknown>) => string;

export function isBilingual(label: unknown): label is Bilingual {
  return typeof label === 'object' && label !== null && typeof (label as Bilingual).zh === 'string' && typeof (label as Bilingual).en === 'string';
}

/**
 * The text of `label` in `lang` (English for `en`, Chinese otherwise, as the console falls
 * back to Chinese). A key goes to `translate`; an inline text gets the same `{{name}}`
 * placeholders filled as the locale files' texts, so a message can move between the two.
 */
export function labelText(label: Label, lang: string, translate: TranslateKey, params?: Record<string, unknown>): string {
  if (typeof label === 'string') return translate(label, params);
  const text = lang === 'en' ? label.en : label.zh;
  if (!params) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
