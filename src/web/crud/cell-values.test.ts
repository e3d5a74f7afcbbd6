import { describe, expect, it } from 'vitest';
import { colorFor, colorOfValue, commaList, fillTemplate, maskSecret, percentOf, readJsonPath, RESPONSE_TIME_COLORS, spentSeconds } from './cell-values';

describe('cell values', () => {
  it('colours response times as documented', () => {
    expect(colorFor(800, RESPONSE_TIME_COLORS)).toBe('green');
    expect(colorFor(1000, RESPONSE_TIME_COLORS)).toBe('green');
    expect(colorFor(2500, RESPONSE_TIME_COLORS)).toBe('lime');
    expect(colorFor(5000, RESPONSE_TIME_COLORS)).toBe('yellow');
    expect(colorFor(5001, RESPONSE_TIME_COLORS)).toBe('red');
  });

  it('computes spent time in seconds with one decimal', () => {
    expect(spentSeconds(100, 161)).toBe(61);
    expect(spentSeconds(1000, 3450, 'ms')).toBe(2.5);
    expect(spentSeconds(100, 0)).toBeUndefined();
    expect(spentSeconds(0, 100)).toBeUndefined();
  });

  it('reads values inside JSON text fields', () => {
    const row = { other: JSON.stringify({ frt: 1500, admin_info: { use_channel: ['3', '5'] } }), name: 'x' };
    expect(readJsonPath(row, 'other.frt')).toBe(1500);
    expect(readJsonPath(row, 'other.admin_info.use_channel')).toEqual(['3', '5']);
    expect(readJsonPath(row, 'other.missing.deep')).toBeUndefined();
    expect(readJsonPath(row, 'name')).toBe('x');
    expect(readJsonPath({ other: 'not json' }, 'other.frt')).toBeUndefined();
  });

  it('fills templates from a row', () => {
    expect(fillTemplate('{name}    sk-{key}', { name: 'a', key: 'abc' })).toBe('a    sk-abc');
    expect(fillTemplate('sk-{key}{none}', { key: 'k' })).toBe('sk-k');
  });

  it('recognises percents', () => {
    expect(percentOf('75%')).toBe(75);
    expect(percentOf(' 100 % ')).toBe(100);
    expect(percentOf('queued')).toBeUndefined();
    expect(percentOf('')).toBeUndefined();
  });

  it('masks secrets and lists', () => {
    expect(maskSecret('abcdefghijklmnop', 'sk-')).toBe('sk-abcd**********mnop');
    expect(maskSecret('short', 'sk-')).toBe('sk-short');
    expect(commaList(' a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(colorOfValue(7)).toBe(colorOfValue('7'));
  });
});
