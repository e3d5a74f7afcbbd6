/**
 * The scheduled channel checks of the master process: every CHANNEL_TEST_FREQUENCY minutes a
 * test round over every channel (automatic disable and re-enable as the "test all" button,
 * without its final notice), every CHANNEL_UPDATE_FREQUENCY minutes a balance round. As in the
 * reference the period is counted from the end of the previous round, so rounds never
 * overlap; a tick that finds a round of its kind under way (a button's) lets that one count.
 *
 * `stop` (the app closes, on any node) clears the timers and cancels every round under way,
 * manual ones too, waiting until they ended.
 */
import type { AppContext } from '../../context';
import type { NoticeLogger } from '../notifications/notice';
import { updateAllChannelBalances } from './channel-balance.service';
import { roundUnderWay, stopRounds, type RoundKind } from './channel-rounds';
import { startChannelTests } from './channel-test.service';

export interface ChannelChecks {
  stop(): Promise<void>;
}

type Logger = NoticeLogger & { info(message: string): void };

const ROUNDS: Record<RoundKind, (ctx: AppContext, log: NoticeLogger) => Promise<void>> = {
  tests: (ctx, log) => startChannelTests(ctx, log, false),
  balances: updateAllChannelBalances,
};

export function startChannelChecks(ctx: AppContext, log: Logger): ChannelChecks {
  const timers = new Map<RoundKind, NodeJS.Timeout>();
  let stopped = false;

  const schedule = (kind: RoundKind, minutes: number) => {
    const timer = setTimeout(() => {
      const tick = roundUnderWay(ctx, kind) ? Promise.resolve() : Promise.resolve().then(() => ROUNDS[kind](ctx, log));
      tick
        .catch((err: unknown) => log.warn({ reason: err instanceof Error ? err.message : String(err) }, `scheduled channel ${kind} failed`))
        .finally(() => {
          if (!stopped) schedule(kind, minutes);
        });
    }, minutes * 60_000);
    timer.unref();
    timers.set(kind, timer);
  };

  const { masterProcess, channelTestFrequencyMinutes, channelUpdateFrequencyMinutes } = ctx.config;
  // Slave nodes and the other cluster workers leave the deployment's checks to the master process.
  if (masterProcess) {
    if (channelTestFrequencyMinutes > 0) {
      schedule('tests', channelTestFrequencyMinutes);
      log.info(`channel tests every ${channelTestFrequencyMinutes} minutes`);
    }
    if (channelUpdateFrequencyMinutes > 0) {
      schedule('balances', channelUpdateFrequencyMinutes);
      log.info(`channel balance refresh every ${channelUpdateFrequencyMinutes} minutes`);
    }
  }

  return {
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await stopRounds(ctx);
    },
  };
}
