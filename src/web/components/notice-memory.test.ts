import { beforeEach, describe, expect, it, vi } from 'vitest';
import { closeNoticeForToday, localDay, noticeFingerprint, shouldShowNotice } from './notice-memory';

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

const morning = new Date(2031, 4, 5, 9, 0);
const evening = new Date(2031, 4, 5, 23, 59);
const nextDay = new Date(2031, 4, 6, 0, 1);

describe('notice memory', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));

  it('shows a notice with text, never an empty one', () => {
    expect(shouldShowNotice('Maintenance tonight', morning)).toBe(true);
    expect(shouldShowNotice('  \n', morning)).toBe(false);
  });

  it('stays closed for the rest of the day once closed for today', () => {
    closeNoticeForToday('Maintenance tonight', morning);
    expect(shouldShowNotice('Maintenance tonight', evening)).toBe(false);
    expect(shouldShowNotice('Maintenance tonight', nextDay)).toBe(true);
  });

  it('shows again the same day when the text changes', () => {
    closeNoticeForToday('Maintenance tonight', morning);
    expect(shouldShowNotice('Maintenance moved to Friday', evening)).toBe(true);
  });

  it('tells texts apart and names local days', () => {
    expect(noticeFingerprint('a')).not.toBe(noticeFingerprint('b'));
    expect(noticeFingerprint('same')).toBe(noticeFingerprint('same'));
    expect(localDay(nextDay)).toBe('2031-05-06');
  });
});
