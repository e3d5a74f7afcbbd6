/**
 * Channel balance refresh (gateway reference §7.6): one channel on demand, or every enabled
 * channel in turn (POLLING_INTERVAL seconds apart). The balance and the time it was read are
 * stored on the channel; in the "all" run a balance of zero or less disables the channel
 * automatically (reason `余额不足`, whatever its auto_ban), and a failing channel is skipped.
 */
import type { AppContext } from '../../context';
import { AppError, MSG } from '../../errors';
import { CHANNEL_STATUS } from '../../../shared/channel-types';
import type { NoticeLogger } from '../notifications/notice';
import { autoDisableChannel } from './channel-auto-status';
import { fetchBalance } from './channel-balance.providers';
import { updateChannelColumns } from './channel.repository';

export const MSG_LOW_BALANCE = '余额不足';

interface BalanceChannel {
  id: number;
  name: string;
  type: number;
  key: string;
  base_url: string;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function refresh(ctx: AppContext, channel: BalanceChannel): Promise<number> {
  const balance = await fetchBalance({ type: channel.type, baseUrl: channel.base_url, key: channel.key });
  await updateChannelColumns(ctx.db, [channel.id], { balance, balance_updated_time: now() });
  return balance;
}

/** Reads and stores one channel's balance; answers it. */
export async function updateChannelBalance(ctx: AppContext, id: number): Promise<number> {
  const channel = await ctx.db.selectFrom('channels').select(['id', 'name', 'type', 'key', 'base_url']).where('id', '=', id).executeTakeFirst();
  if (!channel) throw new AppError(MSG.notFound);
  return refresh(ctx, channel);
}

/** Refreshes every enabled channel; those at zero or below are disabled. */
export async function updateAllChannelBalances(ctx: AppContext, log: NoticeLogger): Promise<void> {
  const channels = await ctx.db
    .selectFrom('channels')
    .select(['id', 'name', 'type', 'key', 'base_url'])
    .where('status', '=', CHANNEL_STATUS.enabled)
    .orderBy('id')
    .execute();
  const pauseMs = Math.max(0, ctx.config.pollingIntervalSeconds) * 1000;
  for (const [i, channel] of channels.entries()) {
    if (i > 0 && pauseMs > 0) await sleep(pauseMs);
    try {
      const balance = await refresh(ctx, channel);
      if (balance <= 0) await autoDisableChannel(ctx, channel, MSG_LOW_BALANCE, log);
    } catch (err) {
      // Types without a balance API and unreachable providers are simply left as they are.
      if (!(err instanceof AppError)) log.warn({ channelId: channel.id, reason: err instanceof Error ? err.message : String(err) }, 'balance refresh failed');
    }
  }
}
