/**
 * Short-lived codes sent by mail: email verification codes and password-reset tokens,
 * keyed by purpose and address. A new code replaces the previous one of the same key.
 *
 * In memory for a single node; in Redis (keys with a TTL) when it is configured, so a code
 * sent by one node is accepted by any other (docs/accounts.md#email-verification).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sharedOrLocal, type RedisLink } from '../../plumbing/redis-link';

export type CodePurpose = 'verify' | 'reset';

export interface CodeStore {
  /** Keeps `code` for (purpose, email) during `ttlSeconds`, replacing any earlier one. */
  put(purpose: CodePurpose, email: string, code: string, ttlSeconds: number): Promise<void>;
  /** Whether `code` is the live code of (purpose, email). The code stays usable. */
  matches(purpose: CodePurpose, email: string, code: string): Promise<boolean>;
  /** Like `matches`, and removes the code when it matched, so it works once. */
  consume(purpose: CodePurpose, email: string, code: string): Promise<boolean>;
}

/** Compares without leaking through timing how many leading characters were right. */
export function sameCode(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

function keyOf(purpose: CodePurpose, email: string): string {
  return `${purpose}:${email}`;
}

export class MemoryCodeStore implements CodeStore {
  readonly #codes = new Map<string, { code: string; expiresAt: number }>();

  /** `now` in milliseconds; tests pass a clock they can move. */
  constructor(private readonly now: () => number = Date.now) {}

  async put(purpose: CodePurpose, email: string, code: string, ttlSeconds: number): Promise<void> {
    this.#prune();
    this.#codes.set(keyOf(purpose, email), { code, expiresAt: this.now() + ttlSeconds * 1000 });
  }

  async matches(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    const entry = this.#codes.get(keyOf(purpose, email));
    return entry !== undefined && entry.expiresAt > this.now() && sameCode(entry.code, code);
  }

  async consume(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    // No await between the check and the delete: two requests cannot both pass.
    const entry = this.#codes.get(keyOf(purpose, email));
    if (!entry || entry.expiresAt <= this.now() || !sameCode(entry.code, code)) return false;
    this.#codes.delete(keyOf(purpose, email));
    return true;
  }

  /** Expired entries go on each write, so the map never outgrows the live codes. */
  #prune(): void {
    const now = this.now();
    for (const [key, entry] of this.#codes) if (entry.expiresAt <= now) this.#codes.delete(key);
  }
}

// Compare and delete in one step, so a reset token cannot be used twice by racing nodes.
const CONSUME_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

export class RedisCodeStore implements CodeStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'switchyard:code:',
  ) {}

  async put(purpose: CodePurpose, email: string, code: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + keyOf(purpose, email), code, 'EX', ttlSeconds);
  }

  async matches(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    const stored = await this.redis.get(this.prefix + keyOf(purpose, email));
    return stored !== null && sameCode(stored, code);
  }

  async consume(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    if (!code) return false;
    const result = await this.redis.eval(CONSUME_SCRIPT, 1, this.prefix + keyOf(purpose, email), code);
    return Number(result) === 1;
  }
}

/**
 * Redis while it answers, this node's memory while it does not: a code mailed during an
 * outage is checked on the node that sent it; codes kept in Redis before it are back with it.
 */
class FallbackCodeStore implements CodeStore {
  readonly #shared: RedisCodeStore;
  readonly #local = new MemoryCodeStore();

  constructor(private readonly link: RedisLink) {
    this.#shared = new RedisCodeStore(link.client);
  }

  put(purpose: CodePurpose, email: string, code: string, ttlSeconds: number): Promise<void> {
    return sharedOrLocal(
      this.link,
      () => this.#shared.put(purpose, email, code, ttlSeconds),
      () => this.#local.put(purpose, email, code, ttlSeconds),
    );
  }

  async matches(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    if (await this.#local.matches(purpose, email, code)) return true;
    return sharedOrLocal(
      this.link,
      () => this.#shared.matches(purpose, email, code),
      async () => false,
    );
  }

  async consume(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    if (await this.#local.consume(purpose, email, code)) return true;
    return sharedOrLocal(
      this.link,
      () => this.#shared.consume(purpose, email, code),
      async () => false,
    );
  }
}

/** The store for one server: shared through Redis when there is one. */
export function createCodeStore(link: RedisLink | undefined): CodeStore {
  return link ? new FallbackCodeStore(link) : new MemoryCodeStore();
}
