/**
 * Automatic status changes of a channel (docs/channels.md#automatic-status-changes): disabled
 * (status 3, with the reason) after a qualifying failure, a slow test or an empty balance;
 * enabled again after a passing test. Only real transitions happen and are announced to
 * root: an enabled channel can be disabled, only an automatically disabled one (3) can be
 * enabled — a channel an administrator disabled (2) stays as it is.
 *
 * Every change goes through `setChannelStatus`, so abilities and every node's relay index
 * follow at once. The notice is awaited (it never throws), so a run that reports "done"
 * has sent every notice before; the relay does not wait for these calls.
 */
import type { AppContext } from '../../context';
import { CHANNEL_STATUS } from '../../../shared/channel-types';
import { channelDisabledNotice, channelEnabledNotice, notifyRoot, type ChannelRef } from '../notifications/channel-notices';
import type { NoticeLogger } from '../notifications/notice';
import { channelStatusInfo } from './channel.repository';
import { setChannelStatus } from './channel.service';

async function currentStatus(ctx: AppContext, id: number): Promise<number | undefined> {
  const [row] = await channelStatusInfo(ctx.db, [id]);
  return row?.status;
}

/** Disables an enabled channel with `reason`; answers whether it was enabled (and is now disabled). */
export async function autoDisableChannel(ctx: AppContext, channel: ChannelRef, reason: string, log: NoticeLogger): Promise<boolean> {
  if ((await currentStatus(ctx, channel.id)) !== CHANNEL_STATUS.enabled) return false;
  await setChannelStatus(ctx, [channel.id], CHANNEL_STATUS.autoDisabled, reason);
  await notifyRoot(ctx, channelDisabledNotice(channel, reason), log);
  return true;
}

/** Enables an automatically disabled channel; answers whether it did. */
export async function autoEnableChannel(ctx: AppContext, channel: ChannelRef, log: NoticeLogger): Promise<boolean> {
  if ((await currentStatus(ctx, channel.id)) !== CHANNEL_STATUS.autoDisabled) return false;
  await setChannelStatus(ctx, [channel.id], CHANNEL_STATUS.enabled);
  await notifyRoot(ctx, channelEnabledNotice(channel), log);
  return true;
}
