/**
 * The console's two languages stay complete: Chinese and English have the same keys, and
 * every key the source names (t('...') calls and the declarations' *Key fields that name a
 * key rather than carry their own `{ zh, en }` text) exists.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import zhFirstPage from '../../src/web/locales/zh.json';
import zhConsole from '../../src/web/locales/zh-console.json';
import en from '../../src/web/locales/en.json';
import { RESOURCES } from '../../resources';
import { SIDE_NAV } from '../../src/web/layout/nav-model';

function flatten(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** A structured i18n key (`users.fields.id`), as house rule 11 writes them. */
const I18N_KEY = /^[a-zA-Z]\w*(?:\.\w+)+$/;

/**
 * Every i18n key in `value`: strings under a property ending in `Key` (labelKey, titleKey ...)
 * that look like structured keys (other `...Key` properties, such as storage names, do not).
 */
function declaredKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(declaredKeys);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (/Key$/.test(k) && typeof v === 'string' ? (I18N_KEY.test(v) ? [v] : []) : declaredKeys(v)));
}

// Chinese comes in two files (the first page's texts, the signed-in screens'), one table at run time.
const zh = { ...zhFirstPage, ...zhConsole };
const zhKeys = new Set(flatten(zh));

describe('console locales', () => {
  it('have the same keys in Chinese and English', () => {
    expect(flatten(en).sort()).toEqual([...zhKeys].sort());
  });

  it('have no empty text', () => {
    for (const [lang, table] of [
      ['zh', zh],
      ['en', en],
    ] as const) {
      const empty = flatten(table).filter((key) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], table) === '');
      expect(empty, lang).toEqual([]);
    }
  });

  it('hold every key the declarations and the navigation name', () => {
    // Inline `{ zh, en }` texts are no keys: resource-labels.test.ts checks those.
    const messages = RESOURCES.flatMap((r) => [r.messages?.created, r.messages?.updated]).filter((m): m is string => typeof m === 'string');
    const named = [...declaredKeys(RESOURCES), ...declaredKeys(SIDE_NAV), ...messages];
    expect(named.filter((k) => !zhKeys.has(k))).toEqual([]);
  });

  it('hold every literal key the console passes to t()', () => {
    const used = sourceFiles(join(dirname(fileURLToPath(import.meta.url)), '../../src/web')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z][\w]*(?:\.[\w]+)+)'/g)].map((m) => m[1]),
    );
    expect(used.length).toBeGreaterThan(50);
    expect([...new Set(used)].filter((k) => !zhKeys.has(k))).toEqual([]);
  });

  it('keep each Chinese section in one of its two files', () => {
    expect(Object.keys(zhFirstPage).filter((section) => section in zhConsole)).toEqual([]);
  });

  it('give the frame and the public pages their texts with the first page (zh.json)', () => {
    const web = join(dirname(fileURLToPath(import.meta.url)), '../../src/web');
    const firstPageKeys = new Set(flatten(zhFirstPage));
    const publicFiles = ['layout', 'pages/account', 'pages/home', 'pages/about', 'pages/pricing'].flatMap((dir) => sourceFiles(join(web, dir)));
    const used = publicFiles.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z][\w]*(?:\.[\w]+)+)'/g)].map((m) => m[1]));
    expect(used.length).toBeGreaterThan(20);
    expect([...new Set(used)].filter((k) => !firstPageKeys.has(k))).toEqual([]);
  });
});
