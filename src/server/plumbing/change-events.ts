/**
 * "These rows changed" signals for caches of other areas (the relay keeps tokens and users
 * in memory). A service announces a write after it committed; listeners on this node hear it
 * at once, and with Redis the announcement is published on `switchyard:changes` so every
 * other node hears it too. Without Redis, other nodes rely on their cache lifetime
 * (SYNC_FREQUENCY). One subscriber connection serves every topic.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context';

export const CHANGES_REDIS_CHANNEL = 'switchyard:changes';

/** What changed: API tokens (by token id) or users (by user id). */
export type ChangeTopic = 'tokens' | 'users';

export interface Change {
  topic: ChangeTopic;
  /** Ids of the rows concerned; empty when many or all may have changed. */
  ids: number[];
  /** True when another node made the change. */
  remote: boolean;
}

export type ChangeListener = (change: Change) => void;

class ChangeHub {
  readonly #emitter = new EventEmitter<{ change: [Change] }>();
  readonly #origin = randomUUID();
  #subscriber?: Redis;

  constructor(private readonly redis: Redis | undefined) {
    this.#emitter.setMaxListeners(0);
  }

  on(listener: ChangeListener): () => void {
    this.#emitter.on('change', listener);
    return () => this.#emitter.off('change', listener);
  }

  emit(topic: ChangeTopic, ids: number[]): void {
    this.#deliver({ topic, ids, remote: false });
    // A lost message only delays other nodes until their cache entries expire.
    this.redis?.publish(CHANGES_REDIS_CHANNEL, JSON.stringify({ origin: this.#origin, topic, ids })).catch(() => undefined);
  }

  /** Starts hearing other nodes (no-op without Redis or when started). */
  async start(): Promise<void> {
    if (!this.redis || this.#subscriber) return;
    const subscriber = this.redis.duplicate();
    this.#subscriber = subscriber;
    subscriber.on('message', (_channel: string, text: string) => {
      let message: { origin?: string; topic?: string; ids?: unknown };
      try {
        message = JSON.parse(text) as typeof message;
      } catch {
        return;
      }
      if (message.origin === this.#origin || (message.topic !== 'tokens' && message.topic !== 'users')) return;
      const ids = Array.isArray(message.ids) ? message.ids.filter((id): id is number => typeof id === 'number') : [];
      this.#deliver({ topic: message.topic, ids, remote: true });
    });
    await subscriber.subscribe(CHANGES_REDIS_CHANNEL);
  }

  stop(): void {
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
  }

  #deliver(change: Change): void {
    // A failing listener must not break the write that already committed, nor the others.
    for (const listener of this.#emitter.listeners('change')) {
      try {
        listener(change);
      } catch {
        // the listener's own problem
      }
    }
  }
}

const hubs = new WeakMap<AppContext, ChangeHub>();

/** The hub of one running app (one per context, so test servers in one process stay apart). */
export function changeEvents(ctx: AppContext): ChangeHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new ChangeHub(ctx.redis);
    hubs.set(ctx, hub);
  }
  return hub;
}

/** Announces that rows of `topic` changed (call after the transaction committed). */
export function announceChange(ctx: AppContext, topic: ChangeTopic, ids: number[]): void {
  changeEvents(ctx).emit(topic, ids);
}
