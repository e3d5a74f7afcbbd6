/**
 * Channel tests (docs/channels.md#channel-test, docs/channels.md#test-all). A single test answers whether the channel
 * works and how long it took, records response_time (ms) and test_time, and writes the
 * reference's `模型测试` consume log for root (nothing is deducted); it never changes the
 * channel's status. "Test all" (the button, or every CHANNEL_TEST_FREQUENCY minutes on the
 * master node) runs in the background, one round per node at a time, a few channels at once
 * (channel-rounds.ts), over the enabled and the automatically disabled channels (a channel
 * an administrator disabled is left alone: it would never be re-enabled anyway), and changes
 * statuses:
 *   - enabled, auto_ban on, and the failure qualifies for automatic disable (with
 *     AutomaticDisableChannelEnabled) or the test took longer than ChannelDisableThreshold
 *     seconds (0 = never) → automatically disabled, with the reason;
 *   - automatically disabled, AutomaticEnableChannelEnabled, and the test passed in time →
 *     enabled again.
 * Root is told about each change and, at the end of a manual round, that it finished. A
 * round cut short by the server's shutdown decides nothing about the channel under test.
 */
import type { AppContext } from '../../context';
import { AppError, MSG } from '../../errors';
import { CHANNEL_STATUS } from '../../../shared/channel-types';
import { priceLogFields, usageQuota } from '../../relay/billing/formula';
import { priceFor, type PriceInfo } from '../../relay/billing/price';
import { shouldDisable } from '../../relay/channels/health';
import { toRelayChannel, type RelayChannel } from '../../relay/channels/channel-index';
import { RelayError } from '../../relay/errors';
import type { Usage } from '../../relay/providers/types';
import { relayOf } from '../../relay/runtime';
import { recordConsumption } from '../logs/consumption';
import { CHANNEL_TESTS_DONE_NOTICE, notifyRoot } from '../notifications/channel-notices';
import type { NoticeLogger } from '../notifications/notice';
import { autoDisableChannel, autoEnableChannel } from './channel-auto-status';
import { forEachBounded, ROUND_CONCURRENCY, roundUnderWay, startRound } from './channel-rounds';
import { updateChannelColumns } from './channel.repository';
import { probeChannel } from './channel-test.probe';
import { nowSeconds } from '../../../shared/time';

export const MSG_CHANNEL_TEST = {
  midjourney: 'midjourney channel test is not supported',
  midjourneyPlus: 'midjourney plus channel test is not supported!!!',
  suno: 'suno channel test is not supported',
  running: '测试已在运行中',
  logContent: '模型测试',
  slow: (seconds: number, threshold: number) => `响应时间 ${seconds.toFixed(2)}s 超过阈值 ${threshold.toFixed(2)}s`,
} as const;

const UNTESTABLE: Record<number, string> = { 2: MSG_CHANNEL_TEST.midjourney, 5: MSG_CHANNEL_TEST.midjourneyPlus, 36: MSG_CHANNEL_TEST.suno };
const FALLBACK_TEST_MODEL = 'gpt-4o-mini';
/** The account the reference bills tests to (prices in its group, log under its name). */
const TEST_USER_ID = 1;

export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** Seconds the whole test took. */
  time: number;
  /** Why it failed (for the automatic-disable decision). */
  error?: RelayError;
}

interface TestedChannel {
  relay: RelayChannel;
  status: number;
  testModel: string;
}

/** The model a test uses: asked for, else the channel's test_model, else its first model. */
function testModelOf(requested: string | undefined, testModel: string | null, models: string): string {
  const first = models
    .split(',')
    .map((m) => m.trim())
    .find(Boolean);
  return requested?.trim() || testModel?.trim() || first || FALLBACK_TEST_MODEL;
}

async function loadChannel(ctx: AppContext, id: number, requestedModel?: string): Promise<TestedChannel> {
  const row = await ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError(MSG.notFound);
  return { relay: toRelayChannel(row), status: row.status, testModel: testModelOf(requestedModel, row.test_model, row.models) };
}

interface TestBilling {
  user: { username: string; group: string };
  /** The model's price in the test user's group, the group ratio left out (the reference's test log). */
  price: PriceInfo;
}

function acceptsUnset(setting: string): boolean {
  try {
    return (JSON.parse(setting || '{}') as { accept_unset_model_ratio_model?: unknown }).accept_unset_model_ratio_model === true;
  } catch {
    return false;
  }
}

/** Prices the test before the call: an unpriced model fails the test, as in the reference. */
async function testBilling(ctx: AppContext, model: string): Promise<TestBilling | undefined> {
  const user = await ctx.db.selectFrom('users').select(['username', 'group', 'setting']).where('id', '=', TEST_USER_ID).executeTakeFirst();
  if (!user) return undefined;
  const price = priceFor(ctx.options, { model, group: user.group, userId: TEST_USER_ID, acceptUnset: acceptsUnset(user.setting) });
  return { user, price: { ...price, groupRatio: 1 } };
}

/** The reference's test log: root, token name and content `模型测试`; nothing is deducted. */
async function logTest(ctx: AppContext, billing: TestBilling, channel: RelayChannel, model: string, usage: Usage, seconds: number): Promise<void> {
  const { user, price } = billing;
  await recordConsumption(ctx, {
    userId: TEST_USER_ID,
    username: user.username,
    tokenId: 0,
    tokenName: MSG_CHANNEL_TEST.logContent,
    modelName: model,
    quota: usageQuota(usage, price, 'round'),
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    useTime: Math.round(seconds),
    isStream: false,
    channelId: channel.id,
    group: user.group,
    content: MSG_CHANNEL_TEST.logContent,
    // No first-response time: the test waits for the whole answer.
    other: priceLogFields(price, usage, -1000),
  });
}

async function run(ctx: AppContext, channel: TestedChannel, signal?: AbortSignal): Promise<ChannelTestResult> {
  const untestable = UNTESTABLE[channel.relay.type];
  if (untestable) return { success: false, message: untestable, time: 0 };
  const rt = relayOf(ctx);
  if (!rt) throw new AppError('relay not running');
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let result: ChannelTestResult;
  try {
    const billing = await testBilling(ctx, channel.testModel);
    const { usage } = await probeChannel(rt, channel.relay, channel.testModel, signal);
    if (billing) await logTest(ctx, billing, channel.relay, channel.testModel, usage, elapsed());
    result = { success: true, message: '', time: elapsed() };
  } catch (err) {
    // Unpriced models fail here too, as in the reference (a local error: never a reason to disable).
    const error = err instanceof RelayError ? err : new RelayError(500, err instanceof Error ? err.message : String(err));
    result = { success: false, message: error.message, time: elapsed(), error };
  }
  if (signal?.aborted) return result;
  await updateChannelColumns(ctx.db, [channel.relay.id], { response_time: Math.round(result.time * 1000), test_time: nowSeconds() });
  return result;
}

/** GET /api/channel/test/:id: tests one channel with `model` or its default test model. */
export async function testChannel(ctx: AppContext, id: number, model?: string): Promise<ChannelTestResult> {
  return run(ctx, await loadChannel(ctx, id, model));
}

/** What a finished test means for the channel's status (the "test all" rules above). */
async function applyVerdict(ctx: AppContext, channel: TestedChannel, result: ChannelTestResult, log: NoticeLogger): Promise<void> {
  const threshold = ctx.options.number('ChannelDisableThreshold');
  const slow = threshold > 0 && result.time > threshold;
  const ref = { id: channel.relay.id, name: channel.relay.name };
  if (channel.status === CHANNEL_STATUS.enabled && channel.relay.autoBan) {
    const qualifies = result.error !== undefined && ctx.options.bool('AutomaticDisableChannelEnabled') && shouldDisable(ctx, channel.relay.type, result.error);
    if (slow) await autoDisableChannel(ctx, ref, MSG_CHANNEL_TEST.slow(result.time, threshold), log);
    else if (qualifies) await autoDisableChannel(ctx, ref, result.message, log);
  } else if (channel.status === CHANNEL_STATUS.autoDisabled && result.success && !slow && ctx.options.bool('AutomaticEnableChannelEnabled')) {
    await autoEnableChannel(ctx, ref, log);
  }
}

async function testAll(ctx: AppContext, log: NoticeLogger, notify: boolean, signal: AbortSignal): Promise<void> {
  const ids = await ctx.db.selectFrom('channels').select('id').where('status', 'in', [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled]).orderBy('id').execute();
  const pauseMs = Math.max(0, ctx.config.pollingIntervalSeconds) * 1000;
  await forEachBounded(
    ids,
    ROUND_CONCURRENCY,
    async ({ id }) => {
      try {
        // Read again: the channel may have changed (or gone) while earlier ones were tested.
        const channel = await loadChannel(ctx, id);
        if (channel.status === CHANNEL_STATUS.disabled) return;
        const result = await run(ctx, channel, signal);
        // Cut short by the shutdown: says nothing about the channel.
        if (!signal.aborted) await applyVerdict(ctx, channel, result, log);
      } catch (err) {
        if (!(err instanceof AppError)) log.warn({ channelId: id, reason: err instanceof Error ? err.message : String(err) }, 'channel test failed');
      }
    },
    pauseMs,
    signal,
  );
  if (notify && !signal.aborted) await notifyRoot(ctx, CHANNEL_TESTS_DONE_NOTICE, log);
}

/**
 * Starts testing every channel in the background and answers the round's end; refuses
 * (`测试已在运行中`) while a round of this node is still going. `notify` tells root at the end
 * (GET /api/channel/test; the scheduled rounds stay quiet, as the reference's do).
 */
export function startChannelTests(ctx: AppContext, log: NoticeLogger, notify = true): Promise<void> {
  const done = startRound(ctx, 'tests', (signal) =>
    testAll(ctx, log, notify, signal).catch((err: unknown) => log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'channel tests stopped')),
  );
  if (!done) throw new AppError(MSG_CHANNEL_TEST.running);
  return done;
}

/** The round in progress on this node, if any (tests wait for it). */
export function channelTestsRunning(ctx: AppContext): Promise<void> | undefined {
  return roundUnderWay(ctx, 'tests');
}
