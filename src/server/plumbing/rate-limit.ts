/**
 * Per-client-IP rate limits with the reference's sliding-log algorithm: keep the times of
 * the last N accepted requests; accept while fewer than N are kept, or when the oldest is
 * at least `duration` old (it is then dropped). Idle keys expire after 20 minutes, or after
 * one window when that is longer (so long windows, e.g. the model request limit or the
 * notification throttle, keep their history).
 * In memory for one node, or in Redis (one list per key, updated atomically by a script)
 * so that every node behind a load balancer shares the same counts.
 *
 * `hit` checks and records at once. `allows` and `record` split the two for counters that
 * are checked before a request but only counted after it, depending on its outcome (the
 * model request limit counts successful requests only).
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimitConfig } from '../config';
import { sharedOrLocal, type RedisLink } from './redis-link';

const IDLE_EXPIRY_MS = 20 * 60 * 1000;

export interface RateLimiter {
  /** Records a request under `key`; false when it must be refused. */
  hit(key: string, limit: number, durationSeconds: number): Promise<boolean>;
  /** Whether `hit` would accept a request under `key` now; records nothing. */
  allows(key: string, limit: number, durationSeconds: number): Promise<boolean>;
  /** Records a request under `key` without checking; only the newest `limit` times are kept. */
  record(key: string, limit: number, durationSeconds: number): Promise<void>;
  close(): void;
}

/** How long an idle key is kept: 20 minutes, or one window when that is longer. */
function keepMs(durationSeconds: number): number {
  return Math.max(IDLE_EXPIRY_MS, durationSeconds * 1000);
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #log = new Map<string, { times: number[]; keepMs: number }>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.#sweeper = setInterval(() => this.#sweep(), 60_000);
    this.#sweeper.unref();
  }

  #times(key: string, durationSeconds: number): number[] {
    let entry = this.#log.get(key);
    if (!entry) {
      entry = { times: [], keepMs: 0 };
      this.#log.set(key, entry);
    }
    entry.keepMs = Math.max(entry.keepMs, keepMs(durationSeconds));
    return entry.times;
  }

  async hit(key: string, limit: number, durationSeconds: number): Promise<boolean> {
    if (!(await this.allows(key, limit, durationSeconds))) return false;
    await this.record(key, limit, durationSeconds);
    return true;
  }

  async allows(key: string, limit: number, durationSeconds: number): Promise<boolean> {
    const times = this.#log.get(key)?.times ?? [];
    return times.length < limit || this.now() - times[0]! >= durationSeconds * 1000;
  }

  async record(key: string, limit: number, durationSeconds: number): Promise<void> {
    const times = this.#times(key, durationSeconds);
    times.push(this.now());
    while (times.length > Math.max(1, limit)) times.shift();
  }

  #sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.#log) if ((entry.times[entry.times.length - 1] ?? 0) < now - entry.keepMs) this.#log.delete(key);
  }

  close(): void {
    clearInterval(this.#sweeper);
  }
}

// Newest first: LPUSH adds at the head, the oldest kept time is at the tail.
const ALLOWS = `
local len = redis.call('LLEN', KEYS[1])
if len < tonumber(ARGV[1]) then return 1 end
local oldest = tonumber(redis.call('LINDEX', KEYS[1], -1))
if tonumber(ARGV[3]) - oldest >= tonumber(ARGV[2]) then return 1 end
return 0
`;

const RECORD = `
redis.call('LPUSH', KEYS[1], ARGV[3])
redis.call('LTRIM', KEYS[1], 0, math.max(1, tonumber(ARGV[1])) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
`;

// Checks and records in one script, so two nodes cannot both take the last free slot.
const SLIDING_LOG_SCRIPT = `
local function allows()${ALLOWS}end
if allows() == 1 then${RECORD}  return 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0
`;

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rateLimit:',
  ) {}

  #run(script: string, key: string, limit: number, durationSeconds: number): Promise<unknown> {
    return this.redis.eval(script, 1, this.prefix + key, limit, durationSeconds * 1000, Date.now(), keepMs(durationSeconds));
  }

  async hit(key: string, limit: number, durationSeconds: number): Promise<boolean> {
    return Number(await this.#run(SLIDING_LOG_SCRIPT, key, limit, durationSeconds)) === 1;
  }

  async allows(key: string, limit: number, durationSeconds: number): Promise<boolean> {
    return Number(await this.#run(ALLOWS, key, limit, durationSeconds)) === 1;
  }

  async record(key: string, limit: number, durationSeconds: number): Promise<void> {
    await this.#run(RECORD, key, limit, durationSeconds);
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

/**
 * Redis while it answers, this node's memory while it does not (issue #12): the console and
 * the gateway keep their limits, per node, through a Redis outage instead of failing.
 */
export class FallbackRateLimiter implements RateLimiter {
  constructor(
    private readonly link: RedisLink,
    private readonly shared: RateLimiter,
    private readonly local: RateLimiter,
  ) {}

  hit(key: string, limit: number, durationSeconds: number): Promise<boolean> {
    return sharedOrLocal(
      this.link,
      () => this.shared.hit(key, limit, durationSeconds),
      () => this.local.hit(key, limit, durationSeconds),
    );
  }

  allows(key: string, limit: number, durationSeconds: number): Promise<boolean> {
    return sharedOrLocal(
      this.link,
      () => this.shared.allows(key, limit, durationSeconds),
      () => this.local.allows(key, limit, durationSeconds),
    );
  }

  record(key: string, limit: number, durationSeconds: number): Promise<void> {
    return sharedOrLocal(
      this.link,
      () => this.shared.record(key, limit, durationSeconds),
      () => this.local.record(key, limit, durationSeconds),
    );
  }

  close(): void {
    this.shared.close();
    this.local.close();
  }
}
