import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../../src/server/plumbing/rate-limit';
import { RelayError } from '../../src/server/relay/errors';
import { admitModelRequest, MODEL_RATE_LIMIT_MSG } from '../../src/server/services/relay-guards/model-rate-limit';
import { openOptionsStore, type OptionsStore } from '../helpers/options-store';

const redisUrl = process.env.TEST_REDIS_URL;

async function refusal(promise: Promise<unknown>): Promise<RelayError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return err as RelayError;
  }
}

/** The same rules over each counter store: memory with a clock we move, and Redis. */
const stores: Array<{ name: string; skip: boolean; make: () => { limiter: RateLimiter; advance?: (ms: number) => void; ttlMs?: (key: string) => Promise<number>; close: () => void } }> = [
  {
    name: 'memory',
    skip: false,
    make: () => {
      let now = 1_000_000;
      const limiter = new MemoryRateLimiter(() => now);
      return { limiter, advance: (ms) => (now += ms), close: () => limiter.close() };
    },
  },
  {
    name: 'redis',
    skip: !redisUrl,
    make: () => {
      const redis = new Redis(redisUrl!);
      const prefix = `test-mrrl-${randomBytes(4).toString('hex')}:`;
      return { limiter: new RedisRateLimiter(redis, prefix), ttlMs: (key) => redis.pttl(prefix + key), close: () => redis.disconnect() };
    },
  },
];

describe('model request rate limit', () => {
  let store: OptionsStore;
  beforeAll(async () => {
    store = await openOptionsStore();
  });
  afterAll(async () => store?.close());

  async function configure(values: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(values)) await store.set(key, value);
  }

  for (const kind of stores) {
    describe.skipIf(kind.skip)(`[${kind.name}]`, () => {
      let made: ReturnType<(typeof stores)[number]['make']>;
      beforeEach(async () => {
        made?.close();
        made = kind.make();
        await configure({
          ModelRequestRateLimitEnabled: 'true',
          ModelRequestRateLimitDurationMinutes: '1',
          ModelRequestRateLimitCount: '0',
          ModelRequestRateLimitSuccessCount: '1000',
        });
      });
      afterAll(() => made?.close());
      const ctx = () => ({ options: store.options, rateLimiter: made.limiter });

      it('counts every request against the total limit, failures included, with the reference words', async () => {
        await configure({ ModelRequestRateLimitCount: '3', ModelRequestRateLimitDurationMinutes: '2' });
        for (let i = 0; i < 3; i++) await (await admitModelRequest(ctx(), 7)).finish(500);
        const err = await refusal(admitModelRequest(ctx(), 7));
        expect(err).toBeInstanceOf(RelayError);
        expect(err).toMatchObject({ status: 429, message: MODEL_RATE_LIMIT_MSG.total(2, 3), type: 'new_api_error', local: true });
        expect(err!.message).toBe('您已达到总请求数限制：2分钟内最多请求3次，包括失败次数，请检查您的请求是否正确');
        // Per user: another user is not affected.
        expect(await refusal(admitModelRequest(ctx(), 8))).toBeUndefined();
        if (made.advance) {
          made.advance(120_000);
          expect(await refusal(admitModelRequest(ctx(), 7))).toBeUndefined();
        }
      });

      it('counts only requests that ended below 400 against the success limit', async () => {
        await configure({ ModelRequestRateLimitSuccessCount: '2' });
        const failed = await admitModelRequest(ctx(), 9);
        await failed.finish(429);
        for (let i = 0; i < 2; i++) {
          const pass = await admitModelRequest(ctx(), 9);
          await pass.finish(200);
          // Only the first finish counts.
          await pass.finish(200);
        }
        const err = await refusal(admitModelRequest(ctx(), 9));
        expect(err).toMatchObject({ status: 429, message: '您已达到请求数限制：1分钟内最多请求2次' });
        if (made.advance) {
          made.advance(60_000);
          expect(await refusal(admitModelRequest(ctx(), 9))).toBeUndefined();
        }
      });

      it("keeps a long window's history for the whole window (not only the 20-minute idle expiry)", async () => {
        await configure({ ModelRequestRateLimitCount: '1', ModelRequestRateLimitDurationMinutes: '60' });
        await (await admitModelRequest(ctx(), 11)).finish(200);
        if (made.advance) made.advance(30 * 60_000);
        expect(await refusal(admitModelRequest(ctx(), 11))).toMatchObject({ status: 429 });
        if (made.ttlMs) expect(await made.ttlMs('MRRL:11')).toBeGreaterThan(59 * 60_000);
      });

      it('treats counts ≤ 0 (and a disabled switch) as unlimited', async () => {
        await configure({ ModelRequestRateLimitCount: '-1', ModelRequestRateLimitSuccessCount: '1' });
        await (await admitModelRequest(ctx(), 10)).finish(200);
        expect(await refusal(admitModelRequest(ctx(), 10))).toMatchObject({ status: 429 });
        await configure({ ModelRequestRateLimitEnabled: 'false' });
        for (let i = 0; i < 5; i++) expect(await refusal(admitModelRequest(ctx(), 10))).toBeUndefined();
      });
    });
  }

  it('answers 500 rate_limit_check_failed when the counter store fails', async () => {
    await configure({ ModelRequestRateLimitEnabled: 'true', ModelRequestRateLimitCount: '5' });
    const broken: RateLimiter = {
      hit: () => Promise.reject(new Error('redis down')),
      allows: () => Promise.reject(new Error('redis down')),
      record: () => Promise.reject(new Error('redis down')),
      close: () => undefined,
    };
    const err = await refusal(admitModelRequest({ options: store.options, rateLimiter: broken }, 1));
    expect(err).toMatchObject({ status: 500, message: 'rate_limit_check_failed', code: 'rate_limit_check_failed' });
  });
});
