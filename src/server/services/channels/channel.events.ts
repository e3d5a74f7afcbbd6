/**
 * "Channels changed" signal. Every channel write announces itself after its transaction
 * commits, so the relay can rebuild its in-memory selection index at once instead of
 * waiting for the next periodic sync (gateway reference §3.2, Ours). With Redis, the
 * announcement is also published on `switchyard:channels`, and announcements of other
 * nodes are relayed to the local listeners.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { AppContext } from '../../context';

export const CHANNELS_REDIS_CHANNEL = 'switchyard:channels';

export interface ChannelsChange {
  /** What happened, e.g. `create`, `update`, `delete`, `fix`. */
  reason: string;
  /** The channels concerned; empty when many or all may have changed. */
  ids: number[];
  /** True when another node made the change. */
  remote: boolean;
}

export type ChannelsListener = (change: ChannelsChange) => void;

class ChannelEventHub {
  readonly #emitter = new EventEmitter<{ changed: [ChannelsChange] }>();
  /** Tells our own Redis messages apart from other nodes'. */
  readonly #origin = randomUUID();
  #subscriber?: Redis;

  constructor(private readonly redis: Redis | undefined) {
    // The relay, caches and tests may all listen; none of them is a leak.
    this.#emitter.setMaxListeners(0);
  }

  on(listener: ChannelsListener): () => void {
    this.#emitter.on('changed', listener);
    return () => this.#emitter.off('changed', listener);
  }

  emit(reason: string, ids: number[]): void {
    this.#deliver({ reason, ids, remote: false });
    if (this.redis) {
      // A lost message only delays other nodes until their periodic sync.
      this.redis.publish(CHANNELS_REDIS_CHANNEL, JSON.stringify({ origin: this.#origin, reason, ids })).catch(() => undefined);
    }
  }

  /** Starts relaying other nodes' announcements (no-op without Redis or when started). */
  async start(): Promise<void> {
    if (!this.redis || this.#subscriber) return;
    const subscriber = this.redis.duplicate();
    this.#subscriber = subscriber;
    subscriber.on('message', (_channel: string, text: string) => {
      let message: { origin?: string; reason?: string; ids?: number[] };
      try {
        message = JSON.parse(text) as typeof message;
      } catch {
        return;
      }
      if (message.origin === this.#origin) return;
      this.#deliver({ reason: String(message.reason ?? 'remote'), ids: Array.isArray(message.ids) ? message.ids : [], remote: true });
    });
    await subscriber.subscribe(CHANNELS_REDIS_CHANNEL);
  }

  stop(): void {
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
  }

  #deliver(change: ChannelsChange): void {
    // A failing listener must not break the write that already committed, nor the others.
    for (const listener of this.#emitter.listeners('changed')) {
      try {
        listener(change);
      } catch {
        // the listener's own problem
      }
    }
  }
}

const hubs = new WeakMap<AppContext, ChannelEventHub>();

/** The hub of one running app (one per context, so test servers in one process stay apart). */
export function channelEvents(ctx: AppContext): ChannelEventHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new ChannelEventHub(ctx.redis);
    hubs.set(ctx, hub);
  }
  return hub;
}

/** Subscribes to channel changes of this app (local writes and, with Redis, other nodes'); answers the unsubscribe function. */
export function onChannelsChanged(ctx: AppContext, listener: ChannelsListener): () => void {
  return channelEvents(ctx).on(listener);
}
