/**
 * The node's Redis connection and what happens while Redis is away (issue #12, items 4–5).
 *
 * Commands never wait for a Redis that is down: the client does not queue them while
 * disconnected and gives each a short deadline, so a caller learns at once and falls back to
 * this node's memory (rate limits, verification codes; change signals are then heard on this
 * node only). The link says so once in the log when Redis goes and once when it is back,
 * and tells its listeners on `up` so they can catch up with what other nodes changed
 * meanwhile (the change hub reloads every cache then).
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { packageOnFirstUse } from './on-first-use';

const ioredis = packageOnFirstUse<typeof import('ioredis')>('ioredis');

/** How long one command may take before it counts as a failure. */
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;
/** Reconnect attempts back off to this: a Redis that returns is noticed within half a second. */
const MAX_RECONNECT_DELAY_MS = 500;

export interface LinkLogger {
  warn(message: string): void;
  info(message: string): void;
}

export class RedisLink extends EventEmitter<{ up: []; down: [] }> {
  readonly client: Redis;
  #up = false;
  #everUp = false;
  #closing = false;

  constructor(
    url: string,
    private log: LinkLogger,
  ) {
    super();
    this.setMaxListeners(0);
    this.client = new (ioredis().Redis)(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(times * 200, MAX_RECONNECT_DELAY_MS),
    });
    // Connection errors are the link's business (reported as down), never the process's.
    this.client.on('error', () => this.#setUp(false));
    this.client.on('ready', () => this.#setUp(true));
    this.client.on('end', () => this.#setUp(false));
    this.client.on('close', () => this.#setUp(false));
  }

  /** Connects; a Redis that is down at start leaves the node running on memory until it comes. */
  async connect(): Promise<void> {
    try {
      await this.client.connect();
      await this.client.ping();
    } catch (err) {
      this.log.warn(`Redis unreachable at start (${err instanceof Error ? err.message : String(err)}): rate limits, verification codes and change signals use this node's memory until it is back`);
    }
  }

  /** Whether commands can be sent now. */
  get up(): boolean {
    return this.#up;
  }

  /** Where log lines go (the server's logger once it exists). */
  setLogger(log: LinkLogger): void {
    this.log = log;
  }

  /** A second connection for subscriptions: queues its (re)subscriptions until connected. */
  subscriber(): Redis {
    const sub = this.client.duplicate(SUBSCRIBER_OPTIONS);
    sub.on('error', () => undefined);
    return sub;
  }

  close(): void {
    this.#closing = true;
    this.client.disconnect();
  }

  #setUp(up: boolean): void {
    if (this.#closing || up === this.#up) return;
    this.#up = up;
    if (up) {
      if (this.#everUp) this.log.info('Redis is back: shared rate limits, codes and change signals resume; caches reload');
      this.#everUp = true;
      this.emit('up');
    } else {
      this.log.warn("Redis unavailable: rate limits, verification codes and change signals use this node's memory until it is back");
      this.emit('down');
    }
  }
}

/**
 * Subscribes a subscriber connection (see RedisLink.subscriber) to `channel`, waiting at most
 * for a connection attempt: with Redis down the subscription is made when it comes back, and
 * the caller goes on meanwhile.
 */
export async function subscribeSoon(subscriber: Redis, channel: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CONNECT_TIMEOUT_MS);
  });
  await Promise.race([
    subscriber.subscribe(channel).then(
      () => undefined,
      () => undefined,
    ),
    waited,
  ]);
  clearTimeout(timer);
}

/** Options for a duplicate connection that only subscribes: it queues while Redis is away. */
export const SUBSCRIBER_OPTIONS = { enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined } as const;

/**
 * Runs `shared` while the link is up, `local` otherwise or when `shared` fails (the failure
 * marks nothing itself: the client's own events say whether the link went down).
 */
export async function sharedOrLocal<T>(link: RedisLink, shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
  if (!link.up) return local();
  try {
    return await shared();
  } catch {
    return local();
  }
}
