/**
 * Notices to the root account about channels (docs/notifications.md#channel-notices):
 * a channel was disabled or enabled automatically, and a manual "test all
 * channels" run finished. They use root's own notification setting and the reference's
 * throttle (NOTIFY_LIMIT_COUNT per NOTIFICATION_LIMIT_DURATION_MINUTE per type).
 */
import type { AppContext } from '../../context';
import { deliverNotice, type DeliveryResult } from './deliver';
import { NOTICE_TYPE, type Notice, type NoticeLogger } from './notice';
import { loadRootRecipient } from './recipient';

export interface ChannelRef {
  id: number;
  name: string;
}

export function channelDisabledNotice(channel: ChannelRef, reason: string): Notice {
  return {
    type: NOTICE_TYPE.channelUpdate,
    title: `通道「${channel.name}」（#${channel.id}）已被禁用`,
    content: '通道「{{value}}」（#{{value}}）已被禁用，原因：{{value}}',
    values: [channel.name, String(channel.id), reason],
  };
}

export function channelEnabledNotice(channel: ChannelRef): Notice {
  return {
    type: NOTICE_TYPE.channelUpdate,
    title: `通道「${channel.name}」（#${channel.id}）已被启用`,
    content: '通道「{{value}}」（#{{value}}）已被启用',
    values: [channel.name, String(channel.id)],
  };
}

export const CHANNEL_TESTS_DONE_NOTICE: Notice = {
  type: NOTICE_TYPE.channelTest,
  title: '通道测试完成',
  content: '所有通道测试已完成',
  values: [],
};

/** Sends a notice to root; never throws. `no-address` also when there is no root account. */
export async function notifyRoot(ctx: AppContext, notice: Notice, log: NoticeLogger): Promise<DeliveryResult> {
  try {
    const root = await loadRootRecipient(ctx.db);
    if (!root) return 'no-address';
    const throttle = { limit: Math.max(1, ctx.config.notifyLimitCount), seconds: Math.max(1, ctx.config.notificationLimitMinutes) * 60 };
    return await deliverNotice(ctx, root, notice, throttle, log);
  } catch (err) {
    log.warn({ type: notice.type, reason: err instanceof Error ? err.message : String(err) }, 'root notification failed');
    return 'failed';
  }
}
