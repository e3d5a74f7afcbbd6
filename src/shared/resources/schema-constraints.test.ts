import { describe, expect, it } from 'vitest';
import channel from '../../../schemas/entities/channel.json';
import redemption from '../../../schemas/entities/redemption.json';
import token from '../../../schemas/entities/token.json';
import { constraintsOf } from './schema-constraints';

describe('constraintsOf', () => {
  it('reads bounds, lengths, integers and defaults from the entity schemas', () => {
    expect(constraintsOf(channel, 'priority')).toEqual({ min: -999, integer: true, default: 0 });
    // The weight column is a 32-bit integer; the priority's bigint bound (2^53 − 1) is left out.
    expect(constraintsOf(channel, 'weight')).toEqual({ min: 0, max: 2147483647, integer: true, default: 0 });
    expect(constraintsOf(channel, 'name')).toEqual({ maxLength: 191 });
    expect(constraintsOf(token, 'count')).toEqual({ min: 1, max: 100, integer: true, default: 1, rangeMessages: { minimum: '令牌个数必须大于0', maximum: '一次批量创建的令牌个数不能大于 100' } });
    expect(constraintsOf(token, 'remain_quota')).toEqual({ min: 0, integer: true, default: 500000, rangeMessages: { minimum: '额度不能小于 0', maximum: '额度过大' } });
    expect(constraintsOf(token, 'nothing')).toEqual({});
  });

  it('carries the server\'s own words for a value out of bounds', () => {
    expect(constraintsOf(redemption, 'count')).toEqual({
      min: 1,
      max: 100,
      integer: true,
      default: 1,
      rangeMessages: { minimum: '兑换码个数必须大于0', maximum: '一次兑换码批量生成的个数不能大于 100' },
    });
  });

  it('carries a pattern with the field\'s own message in both languages', () => {
    expect(constraintsOf(channel, 'base_url')).toEqual({
      maxLength: 1024,
      pattern: channel.properties.base_url.pattern,
      patternMessage: {
        zh: 'Base URL 必须是以 http:// 或 https:// 开头的地址，中间不能有空格',
        en: 'The base URL must be an address starting with http:// or https://, with no spaces in it',
      },
    });
  });
});
