/**
 * What a failed or passed upstream attempt means for its channel: the circuit breaker
 * (always, in memory), and the reference's automatic disable (docs/relay.md#automatic-disable) when
 * AutomaticDisableChannelEnabled is on and the channel allows it (auto_ban): status 3 with the
 * reason, written through the channel service (root is told; every node's index follows) and
 * taken out of this node's selection at once. A passing channel test re-enables an automatically
 * disabled channel when AutomaticEnableChannelEnabled is on (see channel-test.ts).
 */
import type { AppContext } from '../../context';
import { CHANNEL_STATUS, CHANNEL_TYPE } from '../../../shared/channel-types';
import { autoDisableChannel } from '../../services/channels/channel-auto-status';
import type { RelayError } from '../errors';
import type { RelayLogger } from '../logger';
import type { ChannelIndex, RelayChannel } from './channel-index';
import type { RelayMetrics } from '../../metrics/relay-metrics';

const DISABLING_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active']);
const DISABLING_TYPES = new Set(['insufficient_quota', 'insufficient_user_quota', 'authentication_error', 'permission_error', 'forbidden']);

/** AutomaticDisableKeywords, lower-cased when read (Ours: the reference forgot its defaults). */
function keywords(ctx: AppContext): string[] {
  return ctx.options.lines('AutomaticDisableKeywords').map((k) => k.toLowerCase());
}

/** The reference's ShouldDisableChannel, for a non-local error. */
export function shouldDisable(ctx: AppContext, channelType: number, error: RelayError): boolean {
  if (error.local) return false;
  if (error.status === 401) return true;
  if (error.status === 403 && channelType === CHANNEL_TYPE.gemini) return true;
  if (DISABLING_CODES.has(String(error.code))) return true;
  if (DISABLING_TYPES.has(error.type)) return true;
  const message = error.message.toLowerCase();
  return keywords(ctx).some((k) => message.includes(k));
}

/** Failures that are the channel's fault (not the client's request): they count for the breaker. */
export function countsAgainstChannel(error: RelayError): boolean {
  if (error.local) return false;
  const s = error.status;
  return s >= 500 || s === 429 || s === 401 || s === 403 || s === 408;
}

export class ChannelHealth {
  constructor(
    private readonly ctx: AppContext,
    private readonly index: ChannelIndex,
    private readonly log: RelayLogger,
    private readonly metrics?: RelayMetrics,
  ) {}

  succeeded(channel: RelayChannel): void {
    this.index.breaker.succeeded(channel.id);
  }

  failed(channel: RelayChannel, error: RelayError): void {
    this.log.warn(`relay error (channel #${channel.id}, status code: ${error.status}): ${error.message}`);
    this.metrics?.upstreamFailed(channel.id, error.status);
    if (countsAgainstChannel(error)) this.index.breaker.failed(channel.id, error.retryAfter);
    if (channel.autoBan && this.ctx.options.bool('AutomaticDisableChannelEnabled') && shouldDisable(this.ctx, channel.type, error)) {
      this.disable(channel, error.message);
    }
  }

  /** Disables once per transition: a second failure in flight finds the channel already out. */
  disable(channel: RelayChannel, reason: string): void {
    if (channel.status !== CHANNEL_STATUS.enabled) return;
    this.index.markDisabled(channel.id, CHANNEL_STATUS.autoDisabled);
    this.metrics?.autoDisabled(channel.id);
    autoDisableChannel(this.ctx, channel, reason, this.log).catch((err: unknown) => this.log.error(`disabling channel #${channel.id} failed: ${err instanceof Error ? err.message : String(err)}`));
  }
}
