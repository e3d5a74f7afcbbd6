/**
 * The relay's long-lived pieces, built once per app: the auth cache, the channel index with
 * its health tracking, the ledger writer, the upstream connection pools and the provider
 * options. `startRelay` recovers what a previous run of this node left open before the server
 * accepts requests; `stop` writes the last settlements after the last request finished.
 */
import type { AppContext } from '../context';
import { ChannelHealth } from './channels/health';
import { ChannelIndex } from './channels/channel-index';
import { Ledger } from './billing/ledger';
import { recoverReservations, STALE_RESERVATION_SECONDS } from './billing/recovery';
import { replayJournals } from './billing/journal-replay';
import { AuthCache } from './tokens/auth-cache';
import { UpstreamPools } from './upstream/pools';
import { AccessTokens } from './upstream/access-tokens';
import type { ProviderOptions } from './providers/types';
import { changeEvents } from '../plumbing/change-events';
import { TaskPoller } from './tasks/poller';
import { RelayMetrics } from '../metrics/relay-metrics';
import { metricsEnabled } from '../metrics/access';
import type { RelayLogger } from './logger';

export class RelayRuntime {
  readonly auth: AuthCache;
  readonly channels: ChannelIndex;
  readonly health: ChannelHealth;
  readonly ledger: Ledger;
  readonly pools: UpstreamPools;
  /** OAuth access tokens of channel keys, lent to providers' `authorize` steps. */
  readonly credentials: AccessTokens;
  /** Follows drawing and music tasks up (the master process with UPDATE_TASK only). */
  readonly tasks: TaskPoller;
  /** What the relay counts for `/metrics`; absent when metrics are off (nothing is recorded). */
  readonly metrics: RelayMetrics | undefined;
  /** The direct path in front of Fastify, once the app set it up (relay/direct.ts). */
  direct: { served: number } | undefined;
  #providerOptions: ProviderOptions | undefined;
  #sweeper?: NodeJS.Timeout;
  readonly #onOptionChange = () => {
    this.#providerOptions = undefined;
  };

  constructor(
    readonly ctx: AppContext,
    readonly log: RelayLogger,
  ) {
    this.metrics = metricsEnabled(ctx.config) ? new RelayMetrics() : undefined;
    this.auth = new AuthCache(ctx);
    this.channels = new ChannelIndex(ctx);
    this.health = new ChannelHealth(ctx, this.channels, log, this.metrics);
    this.ledger = new Ledger(ctx, undefined, (message, err) => (err === undefined ? log.warn(message) : log.error(`${message}: ${err instanceof Error ? err.message : String(err)}`)));
    const relayTimeout = ctx.config.relayTimeoutSeconds;
    this.pools = new UpstreamPools(relayTimeout > 0 ? relayTimeout * 1000 : 300_000);
    this.credentials = new AccessTokens({ privateAddressesAllowed: ctx.config.tokenUrlPrivateAddressEnabled });
    this.tasks = new TaskPoller(this);
    this.ledger.settlementLag = this.metrics?.settlementLag;
  }

  /** Options the providers read, rebuilt after any option change. */
  providerOptions(): ProviderOptions {
    if (!this.#providerOptions) {
      const o = this.ctx.options;
      this.#providerOptions = {
        claudeDefaultMaxTokens: o.json<Record<string, number>>('claude.default_max_tokens'),
        claudeModelHeaders: o.json<Record<string, Record<string, string | string[]>>>('claude.model_headers_settings'),
        claudeThinkingAdapterEnabled: o.bool('claude.thinking_adapter_enabled'),
        claudeThinkingBudgetPercentage: o.number('claude.thinking_adapter_budget_tokens_percentage'),
        geminiSafetySettings: o.json<Record<string, string>>('gemini.safety_settings'),
        geminiVersionSettings: o.json<Record<string, string>>('gemini.version_settings'),
        azureDefaultApiVersion: this.ctx.config.azureDefaultApiVersion,
        geminiMaxImagesPerMessage: this.ctx.config.geminiVisionMaxImageNum,
        forceStreamUsage: this.ctx.config.forceStreamOption,
        cohereSafetyMode: this.ctx.config.cohereSafetySetting,
        difyDebug: this.ctx.config.difyDebug,
      };
    }
    return this.#providerOptions;
  }

  async start(): Promise<void> {
    await this.ledger.start();
    // Delivered answers an earlier run journaled but did not write are billed first; what is
    // left open after that is refunded.
    const replayed = await replayJournals(this.ctx, this.ledger);
    if (replayed.settlements > 0) {
      this.log.warn(`billed ${replayed.settlements} settlements (${replayed.quota} quota) an earlier run delivered but had not written`);
    }
    if (replayed.skippedJournals > 0) this.log.warn(`${replayed.skippedJournals} settlement journals without a checkpoint row were not replayed`);
    const recovered = await recoverReservations(this.ctx, this.ledger.node, this.ledger.instance);
    if (recovered.reservations > 0) {
      this.log.warn(`refunded ${recovered.reservations} reservations (${recovered.quota} quota) left open by an earlier run`);
    }
    this.ctx.options.on('change', this.#onOptionChange);
    await changeEvents(this.ctx).start();
    this.auth.start();
    await this.channels.start();
    // Reservations of nodes that never came back: checked hourly, refunded after a day.
    this.#sweeper = setInterval(
      () => {
        recoverReservations(this.ctx, this.ledger.node, this.ledger.instance, { staleOnly: true }).catch(() => undefined);
      },
      Math.min(3600, STALE_RESERVATION_SECONDS) * 1000,
    );
    this.#sweeper.unref();
    if (this.ctx.config.masterProcess && this.ctx.config.updateTask) this.tasks.start();
  }

  /** After the server stopped taking requests: the last settlements are written. */
  async stop(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    await this.tasks.stop();
    this.ctx.options.off('change', this.#onOptionChange);
    this.auth.stop();
    this.channels.stop();
    await this.ledger.stop();
    await this.pools.close();
    changeEvents(this.ctx).stop();
  }
}

const runtimes = new WeakMap<AppContext, RelayRuntime>();

export async function startRelay(ctx: AppContext, log: RelayLogger): Promise<RelayRuntime> {
  const runtime = new RelayRuntime(ctx, log);
  await runtime.start();
  runtimes.set(ctx, runtime);
  return runtime;
}

/** The relay of a running app (tests, the channel test). */
export function relayOf(ctx: AppContext): RelayRuntime | undefined {
  return runtimes.get(ctx);
}
