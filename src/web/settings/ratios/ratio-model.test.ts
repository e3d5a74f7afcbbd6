import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../catalogue-source';
import { buildSettingsModel } from '../settings-model';
import { addModel, batchSet, isNumberText, parseRatioMaps, ratioRows, removeModel, setCell, toPatch, type RatioMaps } from './ratio-model';

const ratios = buildSettingsModel(CATALOGUE.sections, { lang: 'zh', role: 100 })
  .flatMap((t) => t.sections)
  .find((s) => s.id === 'operation-ratios')!;

const maps: RatioMaps = { price: { mj_imagine: 0.1 }, ratio: { 'gpt-4': 15, b: 1 }, completionRatio: { 'gpt-4': 2 } };

describe('visual ratio table', () => {
  it('reads the maps from the JSON keys marked ratioTableColumn and names a broken one', () => {
    const values = { ModelPrice: '{"x":1}', ModelRatio: '{"x":2,"y":3}', CompletionRatio: '{}', CacheRatio: 'not json' };
    expect(parseRatioMaps(ratios, values)).toEqual({ maps: { price: { x: 1 }, ratio: { x: 2, y: 3 }, completionRatio: {} } });
    expect(parseRatioMaps(ratios, { ...values, ModelRatio: '{"x":"2"}' })).toEqual({ invalid: '模型倍率' });
  });

  it('has one row per model named in any column, sorted', () => {
    expect(ratioRows(maps)).toEqual([
      { name: 'b', price: '', ratio: '1', completionRatio: '' },
      { name: 'gpt-4', price: '', ratio: '15', completionRatio: '2' },
      { name: 'mj_imagine', price: '0.1', ratio: '', completionRatio: '' },
    ]);
  });

  it('edits and clears cells, removes models, accepts only number texts', () => {
    expect(setCell(maps, 'b', 'ratio', '2.5').ratio).toEqual({ 'gpt-4': 15, b: 2.5 });
    expect(setCell(maps, 'b', 'ratio', '').ratio).toEqual({ 'gpt-4': 15 });
    expect(ratioRows(removeModel(maps, 'gpt-4')).map((r) => r.name)).toEqual(['b', 'mj_imagine']);
    expect(['', '1', '1.', '0.25'].every(isNumberText)).toBe(true);
    expect(['a', '1e3', '-1', '1.2.3'].some(isNumberText)).toBe(false);
  });

  it('adds a model once: a duplicate name is refused', () => {
    expect(addModel(maps, { name: 'gpt-4', price: '', ratio: '1', completionRatio: '' })).toEqual({ error: 'exists' });
    expect(addModel(maps, { name: ' ', price: '', ratio: '1', completionRatio: '' })).toEqual({ error: 'nameMissing' });
    const added = addModel(maps, { name: 'new', price: '', ratio: '3', completionRatio: '1.5' });
    expect('maps' in added && ratioRows(added.maps).find((r) => r.name === 'new')).toEqual({ name: 'new', price: '', ratio: '3', completionRatio: '1.5' });
    const fixed = addModel(maps, { name: 'img', price: '0.04', ratio: '3', completionRatio: '' });
    expect('maps' in fixed && ratioRows(fixed.maps).find((r) => r.name === 'img')).toEqual({ name: 'img', price: '0.04', ratio: '', completionRatio: '' });
  });

  it('batch-sets in single or combined mode with the three refusals', () => {
    expect(batchSet(maps, [], { mode: 'single', column: 'ratio', value: '1' })).toEqual({ error: 'noSelection' });
    expect(batchSet(maps, ['b'], { mode: 'single', column: 'ratio', value: ' ' })).toEqual({ error: 'noValue' });
    expect(batchSet(maps, ['b'], { mode: 'combined', ratio: '1', completionRatio: '' })).toEqual({ error: 'noCombined' });
    expect(batchSet(maps, ['b'], { mode: 'single', column: 'ratio', value: 'abc' })).toEqual({ error: 'invalidNumber' });
    const single = batchSet(maps, ['b', 'gpt-4'], { mode: 'single', column: 'ratio', value: '4' });
    expect('maps' in single && single.maps.ratio).toEqual({ 'gpt-4': 4, b: 4 });
    const combined = batchSet(maps, ['b'], { mode: 'combined', ratio: '2', completionRatio: '3' });
    expect('maps' in combined && ratioRows(combined.maps).find((r) => r.name === 'b')).toEqual({ name: 'b', price: '', ratio: '2', completionRatio: '3' });
  });

  it('writes the maps back as the keys JSON texts', () => {
    const patch = toPatch(ratios, { price: { a: 1 }, ratio: {}, completionRatio: { a: 2 } });
    expect(patch).toEqual({ ModelPrice: '{\n  "a": 1\n}', ModelRatio: '{}', CompletionRatio: '{\n  "a": 2\n}' });
  });
});
