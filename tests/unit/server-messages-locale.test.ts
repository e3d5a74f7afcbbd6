/**
 * server-en.json translates the server's Chinese messages for the English console (its keys
 * are those exact strings). A message the server no longer sends leaves a dead entry behind:
 * every key must still be written somewhere the server's replies come from.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import serverEn from '../../src/web/locales/server-en.json';

const ROOT = join(import.meta.dirname, '../..');
/** Where the server's messages are written: its code, the shared code and the declarations and schemas it reads. */
const SOURCES = ['src/server', 'src/shared', 'resources', 'schemas'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|json)$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('server-en.json', () => {
  it('translates only messages the server still sends', () => {
    const text = SOURCES.flatMap((dir) => files(join(ROOT, dir)))
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    const keys = Object.keys(serverEn);
    // A guard against reading nothing: the table is not empty and its best-known message is found.
    expect(keys).toContain('无效的参数');
    expect(keys.filter((message) => !text.includes(message))).toEqual([]);
  });
});
