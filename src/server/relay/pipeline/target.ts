/**
 * The view of a channel a provider gets (providers/types.ts `Target`), built in one place for
 * every caller: an attempt, the channel test, Claude's count_tokens, stored Responses reads.
 * Every field is written in one order (one object shape on the hot path).
 */
import type { RelayChannel } from '../channels/channel-index';
import type { Target } from '../providers/types';
import type { RelayRuntime } from '../runtime';

export interface TargetClient {
  /** The client's query string (Azure's api-version may come from it). */
  query?: Record<string, string>;
  /** The client headers a provider may honour. */
  headers?: Record<string, string>;
}

export function channelTarget(rt: RelayRuntime, channel: RelayChannel, requestModel: string, upstreamModel: string, client: TargetClient = {}): Target {
  const target: Target = {
    channelType: channel.type,
    baseUrl: channel.baseUrl,
    key: channel.key,
    requestModel,
    upstreamModel,
    other: channel.other,
    setting: channel.setting,
    options: rt.providerOptions(),
    clientQuery: client.query,
    clientHeaders: client.headers,
    organization: channel.organization || undefined,
    // Set by an attempt that may send the client's own bytes (attempt.ts).
    rawBody: undefined,
  };
  return target;
}
