/**
 * `x-messages` (shared/schema-messages.ts): every rule on the form of a value (`pattern`,
 * `format`) in the entity and option schemas has its own message in both languages, the
 * English console can translate the server's Chinese one, and the resolver picks by language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import serverEn from '../../src/web/locales/server-en.json';
import { messagesProblem, schemaMessage, type SchemaMessages } from '../../src/shared/schema-messages';

const SCHEMAS = join(import.meta.dirname, '../../schemas');

interface Property {
  pattern?: string;
  format?: string;
  'x-messages'?: SchemaMessages;
}

/** Every property of every entity and option schema file, named `<file> <field>`. */
function allProperties(): [string, Property][] {
  return ['entities', 'options'].flatMap((dir) =>
    readdirSync(join(SCHEMAS, dir))
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => {
        const file = JSON.parse(readFileSync(join(SCHEMAS, dir, f), 'utf8')) as { properties: Record<string, Property> };
        return Object.entries(file.properties).map(([field, p]): [string, Property] => [`${dir}/${f} ${field}`, p]);
      }),
  );
}

describe('x-messages', () => {
  it('gives every pattern and format its own message in Chinese and English, known to the English console', () => {
    const formed = allProperties().filter(([, p]) => p.pattern !== undefined || p.format !== undefined);
    // The channel base URL and the address options at least (a guard against reading nothing).
    expect(formed.map(([name]) => name)).toEqual(expect.arrayContaining(['entities/channel.json base_url', 'options/system-general.json ServerAddress']));
    for (const [name, p] of formed) {
      for (const keyword of ['pattern', 'format'] as const) {
        if (p[keyword] === undefined) continue;
        const message = p['x-messages']?.[keyword];
        expect(typeof message === 'object' ? Object.keys(message).sort() : message, `${name} x-messages.${keyword}`).toEqual(['en', 'zh']);
        const pair = message as { zh: string; en: string };
        expect((serverEn as Record<string, string>)[pair.zh], `${name}: server-en.json translates ${pair.zh}`).toBe(pair.en);
      }
    }
    // Each message is written for its field: no two fields share one.
    const texts = formed.map(([, p]) => JSON.stringify(p['x-messages']?.pattern ?? p['x-messages']?.format));
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('is well formed in every schema file', () => {
    for (const [name, p] of allProperties()) expect(messagesProblem(p['x-messages']), name).toBeUndefined();
    expect(messagesProblem({ pattern: { zh: '只有中文' } })).toMatch(/x-messages.pattern/);
    expect(messagesProblem({ maxLength: '' })).toMatch(/x-messages.maxLength/);
    expect(messagesProblem('text')).toMatch(/object/);
  });

  it('answers a pair in the asked language and a plain (server) text in Chinese only', () => {
    const pair = { zh: '地址格式错误', en: 'Bad address' };
    expect(schemaMessage(pair, 'zh')).toBe('地址格式错误');
    expect(schemaMessage(pair, 'en')).toBe('Bad address');
    expect(schemaMessage('令牌名称过长', 'zh')).toBe('令牌名称过长');
    expect(schemaMessage('令牌名称过长', 'en')).toBeUndefined();
    expect(schemaMessage(undefined, 'zh')).toBeUndefined();
  });
});
