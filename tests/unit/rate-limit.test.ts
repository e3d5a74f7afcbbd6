import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../../src/server/plumbing/rate-limit';

/** The sliding-log rule: N accepted per window, the (N+1)th waits until the oldest is `duration` old. */
async function checkSlidingLog(limiter: RateLimiter) {
  const key = 'k-' + randomBytes(4).toString('hex');
  expect(await limiter.hit(key, 3, 10)).toBe(true);
  expect(await limiter.hit(key, 3, 10)).toBe(true);
  expect(await limiter.hit(key, 3, 10)).toBe(true);
  expect(await limiter.hit(key, 3, 10)).toBe(false);
  // Other keys are counted apart.
  expect(await limiter.hit(key + 'x', 3, 10)).toBe(true);
  return { key };
}

describe('memory rate limiter', () => {
  it('accepts N per window and then refuses until the oldest request is old enough', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    const { key } = await checkSlidingLog(limiter);
    now += 9_999;
    expect(await limiter.hit(key, 3, 10)).toBe(false);
    now += 1;
    // All three kept requests are now a window old: each is replaced in turn, then full again.
    expect(await limiter.hit(key, 3, 10)).toBe(true);
    expect(await limiter.hit(key, 3, 10)).toBe(true);
    expect(await limiter.hit(key, 3, 10)).toBe(true);
    expect(await limiter.hit(key, 3, 10)).toBe(false);
    limiter.close();
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('redis rate limiter', () => {
  const clients: Redis[] = [];
  const connect = () => {
    const r = new Redis(redisUrl!);
    clients.push(r);
    return r;
  };
  afterAll(() => clients.forEach((c) => c.disconnect()));

  it('applies the same rule and shares counts between nodes', async () => {
    const prefix = `test-rl-${randomBytes(4).toString('hex')}:`;
    const nodeA = new RedisRateLimiter(connect(), prefix);
    const nodeB = new RedisRateLimiter(connect(), prefix);
    const key = 'ip-1';
    expect(await nodeA.hit(key, 3, 1)).toBe(true);
    expect(await nodeB.hit(key, 3, 1)).toBe(true);
    expect(await nodeA.hit(key, 3, 1)).toBe(true);
    // Both nodes see the one shared bucket as full.
    expect(await nodeB.hit(key, 3, 1)).toBe(false);
    expect(await nodeA.hit(key, 3, 1)).toBe(false);
    // Another IP is unaffected.
    expect(await nodeB.hit('ip-2', 3, 1)).toBe(true);
    // After the window the oldest entry is dropped and a request is accepted again.
    await new Promise((r) => setTimeout(r, 1050));
    expect(await nodeB.hit(key, 3, 1)).toBe(true);
    expect(await nodeA.hit(key, 3, 1)).toBe(true);
    expect(await nodeB.hit(key, 3, 1)).toBe(true);
    expect(await nodeA.hit(key, 3, 1)).toBe(false);
    const ttl = await clients[0]!.pttl(prefix + key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(20 * 60 * 1000);
  });
});
