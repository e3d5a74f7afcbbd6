import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCodeStore, RedisCodeStore, sameCode } from '../../src/server/services/accounts/code-store';

describe('MemoryCodeStore', () => {
  it('keeps a code for its TTL, then forgets it', async () => {
    let now = 1_000_000;
    const store = new MemoryCodeStore(() => now);
    await store.put('verify', 'a@example.com', 'abc123', 180);
    expect(await store.matches('verify', 'a@example.com', 'abc123')).toBe(true);
    expect(await store.matches('verify', 'a@example.com', 'abc124')).toBe(false);
    expect(await store.matches('reset', 'a@example.com', 'abc123')).toBe(false);
    expect(await store.matches('verify', 'b@example.com', 'abc123')).toBe(false);
    now += 179_999;
    expect(await store.matches('verify', 'a@example.com', 'abc123')).toBe(true);
    now += 1;
    expect(await store.matches('verify', 'a@example.com', 'abc123')).toBe(false);
  });

  it('replaces an earlier code and consumes a code once', async () => {
    const store = new MemoryCodeStore();
    await store.put('reset', 'a@example.com', 'first', 600);
    await store.put('reset', 'a@example.com', 'second', 600);
    expect(await store.consume('reset', 'a@example.com', 'first')).toBe(false);
    expect(await store.consume('reset', 'a@example.com', 'second')).toBe(true);
    expect(await store.consume('reset', 'a@example.com', 'second')).toBe(false);
  });

  it('never matches an empty code', async () => {
    expect(sameCode('', '')).toBe(false);
    expect(sameCode('abc', 'abcd')).toBe(false);
    expect(sameCode('abc', 'abc')).toBe(true);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('RedisCodeStore', () => {
  let redis: Redis;
  const prefix = `test:codes:${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    redis = new Redis(redisUrl!, { lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('stores codes with a TTL, shared by every store on the same Redis', async () => {
    const one = new RedisCodeStore(redis, prefix);
    const two = new RedisCodeStore(redis, prefix);
    await one.put('verify', 'a@example.com', 'abc123', 180);
    const ttl = await redis.ttl(`${prefix}verify:a@example.com`);
    expect(ttl).toBeGreaterThan(170);
    expect(ttl).toBeLessThanOrEqual(180);
    expect(await two.matches('verify', 'a@example.com', 'abc123')).toBe(true);
    expect(await two.matches('verify', 'a@example.com', 'wrong1')).toBe(false);
  });

  it('consumes a code exactly once, even when asked concurrently', async () => {
    const store = new RedisCodeStore(redis, prefix);
    await store.put('reset', 'a@example.com', 'tok', 600);
    expect(await store.consume('reset', 'a@example.com', 'nope')).toBe(false);
    const results = await Promise.all(Array.from({ length: 5 }, () => store.consume('reset', 'a@example.com', 'tok')));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
