import { describe, expect, it } from 'vitest';
import channel from '../../../schemas/entities/channel.json';
import redemption from '../../../schemas/entities/redemption.json';
import token from '../../../schemas/entities/token.json';
import type { NumberFieldDef, TextFieldDef } from './forms';
import { numberConstraintsOf, textConstraintsOf } from './schema-constraints';

describe('textConstraintsOf / numberConstraintsOf', () => {
  it('reads bounds, lengths, integers and defaults from the entity schemas', () => {
    expect(numberConstraintsOf(channel, 'priority')).toEqual({ min: -999, integer: true, default: 0 });
    // The weight column is a 32-bit integer; the priority's bigint bound (2^53 − 1) is left out.
    expect(numberConstraintsOf(channel, 'weight')).toEqual({ min: 0, max: 2147483647, integer: true, default: 0 });
    expect(textConstraintsOf(channel, 'name')).toEqual({ maxLength: 191 });
    expect(numberConstraintsOf(token, 'count')).toEqual({
      min: 1,
      max: 100,
      integer: true,
      default: 1,
      rangeMessages: { minimum: '令牌个数必须大于0', maximum: '一次批量创建的令牌个数不能大于 100' },
    });
    expect(numberConstraintsOf(token, 'remain_quota')).toEqual({ min: 0, integer: true, default: 500000, rangeMessages: { minimum: '额度不能小于 0', maximum: '额度过大' } });
    expect(textConstraintsOf(token, 'nothing')).toEqual({});
    expect(numberConstraintsOf(token, 'nothing')).toEqual({});
  });

  it("carries the server's own words for a value out of bounds", () => {
    expect(numberConstraintsOf(redemption, 'count')).toEqual({
      min: 1,
      max: 100,
      integer: true,
      default: 1,
      rangeMessages: { minimum: '兑换码个数必须大于0', maximum: '一次兑换码批量生成的个数不能大于 100' },
    });
  });

  it("carries a pattern with the field's own message in both languages", () => {
    expect(textConstraintsOf(channel, 'base_url')).toEqual({
      maxLength: 1024,
      pattern: channel.properties.base_url.pattern,
      patternMessage: {
        zh: 'Base URL 必须是以 http:// 或 https:// 开头的地址，中间不能有空格',
        en: 'The base URL must be an address starting with http:// or https://, with no spaces in it',
      },
    });
  });

  it('reads only the rules of the asked kind', () => {
    expect(textConstraintsOf(token, 'count')).toEqual({ default: 1 });
    expect(numberConstraintsOf(channel, 'base_url')).toEqual({});
  });

  it('does not compile a rule spread into a field of the other kind', () => {
    const label = { zh: '名称', en: 'Name' };
    // @ts-expect-error number rules on a text field
    const text: TextFieldDef = { field: 'name', kind: 'text', labelKey: label, ...numberConstraintsOf(token, 'count') };
    // @ts-expect-error text rules on a number field
    const count: NumberFieldDef = { field: 'count', kind: 'number', labelKey: label, ...textConstraintsOf(channel, 'name') };
    expect([text.kind, count.kind]).toEqual(['text', 'number']);
  });
});
