/**
 * "These rows changed" signals for the caches every node keeps in memory: API tokens and
 * users (the relay's auth cache), channels (the relay's selection index, the pricing page)
 * and options. A service announces a write after it committed; listeners on this node hear
 * it at once, and with Redis the announcement is published on `switchyard:changes` so every
 * other node hears it too. One hub, one subscriber connection, four topics.
 *
 * Cluster workers on one host (WORKERS > 1) are each a node of their own: they hear each other
 * through Redis when it is up, else through the cluster's IPC channel (worker → primary → the
 * other workers, cluster/worker-link.ts), so a token disabled on one worker is refused by its
 * siblings at once even without Redis.
 *
 * While Redis is away announcements reach this node (and its sibling workers) only; when the
 * connection comes back every listener is told that anything of its topic may have changed
 * (ids empty), so each node reloads at once what others changed meanwhile instead of waiting
 * for its periodic reload (SYNC_FREQUENCY). Without Redis, other hosts rely on that reload alone.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { subscribeSoon, type RedisLink } from './redis-link';

export const CHANGES_REDIS_CHANNEL = 'switchyard:changes';

/** What changed: API tokens, users, channels (by id) or options (by key). */
export type ChangeTopic = 'tokens' | 'users' | 'channels' | 'options';
const TOPICS: readonly ChangeTopic[] = ['tokens', 'users', 'channels', 'options'];

export interface Change {
  topic: ChangeTopic;
  /** Ids of the rows concerned; empty when many or all may have changed. */
  ids: number[];
  /** The option key, for `options` (absent: any may have changed). */
  key?: string;
  /** What happened (`create`, `update`, `reconnect` …), for the listeners that care. */
  reason?: string;
  /** True when another node made the change (or Redis came back). */
  remote: boolean;
}

export type ChangeListener = (change: Change) => void;

/** A change as it travels between processes (Redis or the cluster's IPC channel). */
export interface WireChange {
  /** The hub that announced it (its own messages are ignored when they come back). */
  origin: string;
  topic: ChangeTopic;
  ids: number[];
  key?: string;
  reason?: string;
}

/** The other processes on this host (cluster workers), reached without Redis. */
export interface SiblingChannel {
  send(change: WireChange): void;
  /** Hears the siblings' changes (unchecked: they are validated here); answers the way to stop. */
  listen(listener: (message: unknown) => void): () => void;
}

function isTopic(value: unknown): value is ChangeTopic {
  return typeof value === 'string' && (TOPICS as readonly string[]).includes(value);
}

export class ChangeHub {
  readonly #emitter = new EventEmitter<{ change: [Change] }>();
  /** Tells our own Redis messages apart from other nodes'. */
  readonly #origin = randomUUID();
  #subscriber?: Redis;
  #unlistenSiblings?: () => void;
  #started = false;
  readonly #onReconnect = () => {
    // Whatever other nodes announced while Redis was away never reached us: reload it all.
    for (const topic of TOPICS) this.#deliver({ topic, ids: [], reason: 'reconnect', remote: true });
  };

  constructor(
    private readonly link: RedisLink | undefined,
    private readonly siblings?: SiblingChannel,
  ) {
    // The relay, caches and tests may all listen; none of them is a leak.
    this.#emitter.setMaxListeners(0);
  }

  on(listener: ChangeListener): () => void {
    this.#emitter.on('change', listener);
    return () => this.#emitter.off('change', listener);
  }

  /** Listens to one topic. */
  onTopic(topic: ChangeTopic, listener: ChangeListener): () => void {
    return this.on((change) => {
      if (change.topic === topic) listener(change);
    });
  }

  emit(topic: ChangeTopic, ids: number[], extra: { key?: string; reason?: string } = {}): void {
    this.#deliver({ topic, ids, ...extra, remote: false });
    const wire: WireChange = { origin: this.#origin, topic, ids, ...extra };
    // A lost message only delays other nodes until Redis is back (then they reload) or their
    // periodic reload. Redis, when up, reaches the sibling workers too; the IPC channel
    // carries the change only when it cannot, so no sibling hears it twice.
    if (this.link?.up) {
      this.link.client.publish(CHANGES_REDIS_CHANNEL, JSON.stringify(wire)).catch(() => undefined);
    } else {
      this.siblings?.send(wire);
    }
  }

  /** Starts hearing other nodes (no-op without Redis and siblings, or when started). */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    if (this.siblings) this.#unlistenSiblings = this.siblings.listen((message) => this.#receive(message));
    if (!this.link) return;
    const subscriber = this.link.subscriber();
    this.#subscriber = subscriber;
    subscriber.on('message', (_channel: string, text: string) => {
      try {
        this.#receive(JSON.parse(text));
      } catch {
        // not one of ours
      }
    });
    this.link.on('up', this.#onReconnect);
    await subscribeSoon(subscriber, CHANGES_REDIS_CHANNEL);
  }

  stop(): void {
    this.link?.off('up', this.#onReconnect);
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
    this.#unlistenSiblings?.();
    this.#unlistenSiblings = undefined;
    this.#started = false;
  }

  /** Another node's announcement, as it came off Redis or the IPC channel. */
  #receive(value: unknown): void {
    if (typeof value !== 'object' || value === null) return;
    const message = value as { origin?: unknown; topic?: unknown; ids?: unknown; key?: unknown; reason?: unknown };
    if (message.origin === this.#origin || !isTopic(message.topic)) return;
    const ids = Array.isArray(message.ids) ? message.ids.filter((id): id is number => typeof id === 'number') : [];
    this.#deliver({
      topic: message.topic,
      ids,
      ...(typeof message.key === 'string' ? { key: message.key } : {}),
      ...(typeof message.reason === 'string' ? { reason: message.reason } : {}),
      remote: true,
    });
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

/** What the hub is read from: the app context (only its hub, so this module needs nothing else of it). */
interface HubOwner {
  readonly changes?: ChangeHub;
}

const fallbackHubs = new WeakMap<HubOwner, ChangeHub>();

/** The hub of one running app (one per context, so test servers in one process stay apart). */
export function changeEvents(ctx: HubOwner): ChangeHub {
  if (ctx.changes) return ctx.changes;
  // A context assembled by hand (tools, benches) gets a local hub of its own.
  let hub = fallbackHubs.get(ctx);
  if (!hub) {
    hub = new ChangeHub(undefined);
    fallbackHubs.set(ctx, hub);
  }
  return hub;
}

/** Announces that rows of `topic` changed (call after the transaction committed). */
export function announceChange(ctx: HubOwner, topic: ChangeTopic, ids: number[]): void {
  changeEvents(ctx).emit(topic, ids);
}
