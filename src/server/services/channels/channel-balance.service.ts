/**
 * Channel balance refresh (docs/channels.md#balance): one channel on demand, or every enabled
 * channel in a round (the button, or every CHANNEL_UPDATE_FREQUENCY minutes on the master
 * node), a few at once with POLLING_INTERVAL seconds of rest per worker (channel-rounds.ts).
 * Each channel is read through its proxy if it has one. The balance and the time it was read
 * are stored on the channel; in a round a balance of zero or less disables the channel
 * automatically (reason `余额不足`, whatever its auto_ban), and a failing channel is skipped.
 */
import type { AppContext } from '../../context';
import { AppError, MSG } from '../../errors';
import { CHANNEL_STATUS } from '../../../shared/channel-types';
import type { NoticeLogger } from '../notifications/notice';
import { autoDisableChannel } from './channel-auto-status';
import { fetchBalance } from './channel-balance.providers';
import { channelDispatcher } from './channel-proxy';
import { forEachBounded, ROUND_CONCURRENCY, startRound, roundUnderWay } from './channel-rounds';
import { updateChannelColumns } from './channel.repository';
import { nowSeconds } from '../../../shared/time';

export const MSG_LOW_BALANCE = '余额不足';

const COLUMNS = ['id', 'name', 'type', 'key', 'base_url', 'setting'] as const;

interface BalanceChannel {
  id: number;
  name: string;
  type: number;
  key: string;
  base_url: string;
  setting: string | null;
}

async function refresh(ctx: AppContext, channel: BalanceChannel, signal?: AbortSignal): Promise<number> {
  const balance = await fetchBalance({ type: channel.type, baseUrl: channel.base_url, key: channel.key, dispatcher: channelDispatcher(ctx, channel.setting), signal });
  await updateChannelColumns(ctx.db, [channel.id], { balance, balance_updated_time: nowSeconds() });
  return balance;
}

/** Reads and stores one channel's balance; answers it. */
export async function updateChannelBalance(ctx: AppContext, id: number): Promise<number> {
  const channel = await ctx.db.selectFrom('channels').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!channel) throw new AppError(MSG.notFound);
  return refresh(ctx, channel);
}

async function refreshAll(ctx: AppContext, log: NoticeLogger, signal: AbortSignal): Promise<void> {
  const channels = await ctx.db.selectFrom('channels').select(COLUMNS).where('status', '=', CHANNEL_STATUS.enabled).orderBy('id').execute();
  const pauseMs = Math.max(0, ctx.config.pollingIntervalSeconds) * 1000;
  await forEachBounded(
    channels,
    ROUND_CONCURRENCY,
    async (channel) => {
      try {
        const balance = await refresh(ctx, channel, signal);
        if (balance <= 0) await autoDisableChannel(ctx, channel, MSG_LOW_BALANCE, log);
      } catch (err) {
        // Types without a balance API and unreachable providers are simply left as they are.
        if (!(err instanceof AppError) && !signal.aborted) log.warn({ channelId: channel.id, reason: err instanceof Error ? err.message : String(err) }, 'balance refresh failed');
      }
    },
    pauseMs,
    signal,
  );
}

/**
 * Refreshes every enabled channel; those at zero or below are disabled. A round already
 * under way (scheduled or another request's) is waited for instead of starting a second.
 */
export async function updateAllChannelBalances(ctx: AppContext, log: NoticeLogger): Promise<void> {
  const done =
    startRound(ctx, 'balances', (signal) => refreshAll(ctx, log, signal).catch((err: unknown) => log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'balance refresh stopped'))) ??
    roundUnderWay(ctx, 'balances');
  await done;
}
