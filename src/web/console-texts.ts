/**
 * The Chinese texts of the signed-in screens (`locales/zh-console.json`), added to the
 * Chinese bundle when the signed-in side loads: `signed-in-routes.tsx` imports this module
 * first. `locales/zh.json` holds the frame's and the public pages' texts, which the first
 * page carries; English is one file, loaded whole when chosen (`i18n.ts`).
 */
import i18n from './i18n';
import zhConsole from './locales/zh-console.json';

i18n.addResourceBundle('zh', 'translation', zhConsole, true, false);
