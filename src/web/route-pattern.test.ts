import { describe, expect, it } from 'vitest';
import { matchesPattern } from './route-pattern';

describe('matchesPattern', () => {
  it('matches static paths, parameters and a trailing slash, case aside', () => {
    expect(matchesPattern('/login', '/login')).toBe(true);
    expect(matchesPattern('/login', '/Login/')).toBe(true);
    expect(matchesPattern('/chat/:id', '/chat/3')).toBe(true);
    expect(matchesPattern('/', '/')).toBe(true);
  });

  it('does not match other paths or other depths', () => {
    expect(matchesPattern('/chat/:id', '/chat')).toBe(false);
    expect(matchesPattern('/user/reset', '/user/edit')).toBe(false);
    expect(matchesPattern('/', '/login')).toBe(false);
  });
});
