/**
 * What following tasks up reads of the relay runtime. The runtime builds the task poller, so
 * the poll path names these parts rather than the runtime's class (the two would import each
 * other); the runtime itself, and any part of it, passes as one.
 */
import type { AppContext } from '../../context';
import type { ChannelIndex } from '../channels/channel-index';
import type { RelayLogger } from '../logger';
import type { AuthCache } from '../tokens/auth-cache';
import type { UpstreamPools } from '../upstream/pools';

export interface TaskRelay {
  readonly ctx: AppContext;
  readonly log: RelayLogger;
  /** Token balances the cache holds, adjusted as tasks are held, confirmed and released. */
  readonly auth: AuthCache;
  readonly channels: ChannelIndex;
  /** A channel's proxy dispatcher for its polls. */
  readonly pools: UpstreamPools;
}
