/**
 * "Channels changed" signal. Every channel write announces itself after its transaction
 * commits, so the relay can rebuild its in-memory selection index at once instead of
 * waiting for the next periodic sync (docs/channels.md#change-propagation). It is the `channels`
 * topic of the one change hub (plumbing/change-events.ts), which carries it to other nodes
 * through Redis and tells every listener to reload after a Redis outage.
 */
import type { AppContext } from '../../context';
import { changeEvents } from '../../plumbing/change-events';

export interface ChannelsChange {
  /** What happened, e.g. `create`, `update`, `delete`, `fix`, `reconnect`. */
  reason: string;
  /** The channels concerned; empty when many or all may have changed. */
  ids: number[];
  /** True when another node made the change. */
  remote: boolean;
}

export type ChannelsListener = (change: ChannelsChange) => void;

/** Announcing and hearing channel changes of one app. */
export function channelEvents(ctx: AppContext) {
  const hub = changeEvents(ctx);
  return {
    emit: (reason: string, ids: number[]) => hub.emit('channels', ids, { reason }),
    on: (listener: ChannelsListener) => onChannelsChanged(ctx, listener),
    start: () => hub.start(),
  };
}

/** Subscribes to channel changes of this app (local writes and, with Redis, other nodes'); answers the unsubscribe function. */
export function onChannelsChanged(ctx: AppContext, listener: ChannelsListener): () => void {
  return changeEvents(ctx).onTopic('channels', (change) => listener({ reason: change.reason ?? 'update', ids: change.ids, remote: change.remote }));
}
