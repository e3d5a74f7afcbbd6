/**
 * The texts a declaration carries itself (`{ zh, en }`, src/shared/resources/label.ts) are
 * complete: both languages present and non-empty, and every other text field names a
 * locale key (console-locales.test.ts checks the key exists), never a sentence in one
 * language that would show untranslated.
 */
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { BILLING_LABELS } from '../../resources/logs-billing';
import type { ColumnDef } from '../../src/shared/resources/columns';
import { labelText, type Label } from '../../src/shared/resources/label';

/** `…Key` properties that name no text: a row action to run, a local storage name. */
const NOT_TEXT = new Set(['actionKey', 'storageKey']);
const I18N_KEY = /^[a-zA-Z]\w*(?:\.\w+)+$/;

interface Found {
  path: string;
  value: unknown;
}

/** Every value of a text property (`…Key`, `messages.created`, `label`) under `node`. */
function texts(node: unknown, path = ''): Found[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => texts(v, `${path}[${i}]`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([k, v]) => {
    const at = path ? `${path}.${k}` : k;
    const isText = (/Key$/.test(k) && !NOT_TEXT.has(k)) || k === 'label' || /\.messages\.(created|updated)$/.test(at);
    return isText ? [{ path: at, value: v }] : texts(v, at);
  });
}

const declared = [...texts(RESOURCES), ...Object.entries(BILLING_LABELS).map(([k, v]) => ({ path: `BILLING_LABELS.${k}`, value: v as unknown }))];

describe('declaration texts', () => {
  it('are found (the walk is not empty)', () => {
    expect(declared.filter((d) => typeof d.value === 'object').length).toBeGreaterThan(50);
    // Only shared words stay keys (crud.*, common.*, the user-info cell's users.fields.*).
    expect(declared.filter((d) => typeof d.value === 'string').length).toBeGreaterThan(10);
    expect(declared.some((d) => d.value === 'crud.actions.edit')).toBe(true);
  });

  it('inline ones have both Chinese and English, non-empty, and nothing else', () => {
    const bad = declared
      .filter((d) => typeof d.value === 'object')
      .filter(({ value }) => {
        const v = value as Record<string, unknown>;
        const keys = Object.keys(v).sort().join(',');
        return keys !== 'en,zh' || typeof v.zh !== 'string' || typeof v.en !== 'string' || !v.zh.trim() || !v.en.trim();
      })
      .map((d) => d.path);
    expect(bad).toEqual([]);
  });

  it('the others are locale keys, never one-language sentences', () => {
    const bad = declared.filter((d) => typeof d.value === 'string' && !I18N_KEY.test(d.value)).map((d) => `${d.path}: ${String(d.value)}`);
    expect(bad).toEqual([]);
  });

  it('need both languages by type', () => {
    // @ts-expect-error an inline text without English is refused by the type
    const chineseOnly: Label = { zh: '优先级' };
    // @ts-expect-error an inline text without Chinese is refused by the type
    const column: ColumnDef = { field: 'priority', titleKey: { en: 'Priority' } };
    expect([chineseOnly, column]).toHaveLength(2);
  });
});

describe('labelText', () => {
  const translate = (key: string, params?: Record<string, unknown>) => `${key}${params ? JSON.stringify(params) : ''}`;

  it('looks a key up through the translator, with its parameters', () => {
    expect(labelText('crud.actions.edit', 'en', translate)).toBe('crud.actions.edit');
    expect(labelText('crud.x', 'zh', translate, { id: 3 })).toBe('crud.x{"id":3}');
  });

  it('picks the language of an inline text; Chinese for anything but English', () => {
    const text = { zh: '优先级', en: 'Priority' };
    expect(labelText(text, 'en', translate)).toBe('Priority');
    expect(labelText(text, 'zh', translate)).toBe('优先级');
    expect(labelText(text, 'fr', translate)).toBe('优先级');
  });

  it('fills {{name}} placeholders of an inline text as i18next does, leaving unknown ones', () => {
    const text = { zh: '已接收 {{size}}，{{other}}', en: '{{ size }} received' };
    expect(labelText(text, 'zh', translate, { size: '2 KB' })).toBe('已接收 2 KB，{{other}}');
    expect(labelText(text, 'en', translate, { size: '2 KB' })).toBe('2 KB received');
  });
});
