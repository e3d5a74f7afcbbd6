/**
 * Per-client-IP rate limits with the reference's sliding-log algorithm: keep the times of
 * the last N accepted requests; accept while fewer than N are kept, or when the oldest is
 * at least `duration` old (it is then dropped). Idle keys expire after 20 minutes.
 * In memory for one node, or in Redis (one list per key, updated atomically by a script)
 * so that every node behind a load balancer shares the same counts.
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimitConfig } from '../config';

const IDLE_EXPIRY_MS = 20 * 60 * 1000;

export interface RateLimiter {
  /** Records a request under `key`; false when it must be refused. */
  hit(key: string, limit: number, durationSeconds: number): Promise<boolean>;
  close(): void;
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #log = new Map<string, number[]>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.#sweeper = setInterval(() => this.#sweep(), 60_000);
    this.#sweeper.unref();
  }

  async hit(key: string, limit: number, durationSeconds: number): Promise<boolean> {
    const now = this.now();
    let times = this.#log.get(key);
    if (!times) {
      times = [];
      this.#log.set(key, times);
    }
    if (times.length < limit) {
      times.push(now);
      return true;
    }
    if (now - times[0]! >= durationSeconds * 1000) {
      times.shift();
      times.push(now);
      return true;
    }
    return false;
  }

  #sweep(): void {
    const cutoff = this.now() - IDLE_EXPIRY_MS;
    for (const [key, times] of this.#log) if ((times[times.length - 1] ?? 0) < cutoff) this.#log.delete(key);
  }

  close(): void {
    clearInterval(this.#sweeper);
  }
}

// Newest first: LPUSH adds at the head, the oldest kept time is at the tail.
const SLIDING_LOG_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local duration = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local idle = tonumber(ARGV[4])
local len = redis.call('LLEN', key)
if len < limit then
  redis.call('LPUSH', key, now)
  redis.call('PEXPIRE', key, idle)
  return 1
end
local oldest = tonumber(redis.call('LINDEX', key, -1))
if now - oldest >= duration then
  redis.call('LPUSH', key, now)
  redis.call('LTRIM', key, 0, limit - 1)
  redis.call('PEXPIRE', key, idle)
  return 1
end
redis.call('PEXPIRE', key, idle)
return 0
`;

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rateLimit:',
  ) {}

  async hit(key: string, limit: number, durationSeconds: number): Promise<boolean> {
    const result = await this.redis.eval(SLIDING_LOG_SCRIPT, 1, this.prefix + key, limit, durationSeconds * 1000, Date.now(), IDLE_EXPIRY_MS);
    return Number(result) === 1;
  }

  close(): void {}
}

export const TOO_MANY_REQUESTS = '请求过于频繁，请稍后再试';

/** A hook that refuses with 429 once `mark` + client IP exceeds the configured limit. */
export function rateLimitHook(limiter: RateLimiter, mark: string, cfg: RateLimitConfig): onRequestAsyncHookHandler {
  return async function limit(request: FastifyRequest, reply: FastifyReply) {
    if (!cfg.enabled) return;
    const accepted = await limiter.hit(`${mark}:${request.ip}`, cfg.limit, cfg.durationSeconds);
    if (!accepted) {
      await reply.code(429).send({ success: false, message: TOO_MANY_REQUESTS });
    }
  };
}
