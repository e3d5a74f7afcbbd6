import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FONT_FAMILY, themeConfig } from '../../src/web/theme';

describe('the console font stack', () => {
  it('is one: antd components (theme token) and the page body (styles.css) use the same families', () => {
    const css = readFileSync(new URL('../../src/web/styles.css', import.meta.url), 'utf8');
    const body = /\nbody \{[^}]*font-family: ([^;]+);/.exec(css)?.[1];
    expect(body).toBe(FONT_FAMILY);
    expect(themeConfig('light').token?.fontFamily).toBe(FONT_FAMILY);
    expect(themeConfig('dark').token?.fontFamily).toBe(FONT_FAMILY);
  });

  it('names a Chinese font for each major system, and ends with a generic family', () => {
    const families = FONT_FAMILY.split(',').map((f) => f.trim().replace(/'/g, ''));
    expect(families[0]).toBe('system-ui');
    expect(families).toEqual(expect.arrayContaining(['PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC']));
    expect(families.at(-1)).toBe('sans-serif');
  });
});
