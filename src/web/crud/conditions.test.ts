import { describe, expect, it } from 'vitest';
import { buildBody, matches } from './conditions';

describe('conditions', () => {
  it('holds without a condition', () => {
    expect(matches(undefined, {})).toBe(true);
  });

  it('tests in / notIn across numbers and strings', () => {
    expect(matches({ field: 'status', in: [1] }, { status: 1 })).toBe(true);
    expect(matches({ field: 'status', in: [1] }, { status: '1' })).toBe(true);
    expect(matches({ field: 'status', in: [1] }, { status: 2 })).toBe(false);
    expect(matches({ field: 'status', notIn: [1] }, { status: 3 })).toBe(true);
    expect(matches({ field: 'status', notIn: [1] }, { status: 1 })).toBe(false);
    expect(matches({ field: 'type', in: [null] }, { type: null })).toBe(true);
    expect(matches({ field: 'type', in: [3] }, {})).toBe(false);
  });

  it('tests presence', () => {
    expect(matches({ field: 'DeletedAt', present: true }, { DeletedAt: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(matches({ field: 'DeletedAt', present: true }, { DeletedAt: null })).toBe(false);
    expect(matches({ field: 'DeletedAt', present: false }, { DeletedAt: '' })).toBe(true);
  });

  it('needs every condition of a list', () => {
    const both = [
      { field: 'status', in: [2, 3] },
      { field: 'role', notIn: [100] },
    ];
    expect(matches(both, { status: 2, role: 1 })).toBe(true);
    expect(matches(both, { status: 2, role: 100 })).toBe(false);
  });
});

describe('action bodies', () => {
  it('takes literals, row fields and selected fields', () => {
    expect(buildBody({ id: { field: 'id' }, action: 'promote', flag: true, none: null }, { id: 7 })).toEqual({ id: 7, action: 'promote', flag: true, none: null });
    expect(buildBody({ ids: { selected: 'id' } }, undefined, [{ id: 1 }, { id: 4 }])).toEqual({ ids: [1, 4] });
    expect(buildBody(undefined, { id: 1 })).toEqual({});
  });
});
