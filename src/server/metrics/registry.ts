/**
 * The metrics registry of one app: Node's process metrics (prom-client's defaults), the relay's
 * counters and histograms (accumulated by RelayMetrics on the request path, read here), and
 * gauges computed only when Prometheus scrapes (channel health, the ledger, cache ages).
 *
 * Aggregators say how cluster mode (cluster.ts) combines the workers' values: counters and
 * histograms add up, per-channel states take the worst worker, ages the oldest.
 */
import type { Registry } from 'prom-client';
import type { RelayRuntime } from '../relay/runtime';
import { CHANNEL_STATUS } from '../../shared/channel-types';
import { FAILURE_THRESHOLD } from '../relay/channels/breaker';
import { accumulatedMetricClasses } from './accumulated';
import { promClient, type PromClient } from './prom-client';
import { LATENCY_BOUNDS_MS, SETTLEMENT_BOUNDS_MS } from './buckets';
import type { RelayMetrics } from './relay-metrics';

/**
 * Sampling interval of Node's event-loop delay monitor (prom-client's default, said here so it
 * is documented): the `nodejs_eventloop_lag_*` percentiles are the delays of a libuv timer
 * armed every this many milliseconds, so they read about this much even on an idle loop;
 * subtract it to get the lag itself. A finer interval wakes the loop more often.
 */
export const EVENT_LOOP_RESOLUTION_MS = 10;

const PREFIX = 'switchyard_';

function relayMetrics(prom: PromClient, registry: Registry, m: RelayMetrics): void {
  const { AccumulatedCounter, AccumulatedHistogram } = accumulatedMetricClasses(prom);
  const registers = [registry];
  const request = ['channel', 'model', 'status_class'] as const;
  const usage = ['channel', 'model'] as const;
  new AccumulatedCounter(
    { name: `${PREFIX}relay_requests_total`, help: 'Relayed requests by channel (none: refused before one was tried), model and status class sent', labelNames: request, registers },
    () => m.requestCounts(),
  );
  new AccumulatedHistogram(
    { name: `${PREFIX}relay_first_byte_seconds`, help: 'Time from the relay reading a request to the first byte of its answer (a stream: its first event)', labelNames: request, registers },
    LATENCY_BOUNDS_MS,
    () => m.firstByteTimes(),
  );
  new AccumulatedHistogram({ name: `${PREFIX}relay_duration_seconds`, help: 'Time from the relay reading a request to the end of its answer', labelNames: request, registers }, LATENCY_BOUNDS_MS, () =>
    m.totalTimes(),
  );
  new AccumulatedCounter({ name: `${PREFIX}relay_prompt_tokens_total`, help: 'Prompt tokens of settled answers', labelNames: usage, registers }, () => m.billedValues('promptTokens'));
  new AccumulatedCounter({ name: `${PREFIX}relay_completion_tokens_total`, help: 'Completion tokens of settled answers', labelNames: usage, registers }, () => m.billedValues('completionTokens'));
  new AccumulatedCounter({ name: `${PREFIX}relay_quota_billed_total`, help: 'Quota charged by committed settlements (quota units, 500000 per USD by default)', labelNames: usage, registers }, () =>
    m.billedValues('quota'),
  );
  new AccumulatedCounter(
    { name: `${PREFIX}upstream_errors_total`, help: 'Failed upstream attempts by channel and status class (retried or not)', labelNames: ['channel', 'status_class'] as const, registers },
    () => m.upstreamErrors(),
  );
  new AccumulatedCounter({ name: `${PREFIX}upstream_retries_total`, help: 'Attempts that failed on a channel and went on to another attempt', labelNames: ['channel'] as const, registers }, () =>
    m.channelValues('retries'),
  );
  new AccumulatedCounter({ name: `${PREFIX}channel_auto_disables_total`, help: 'Channels disabled automatically by relay failures', labelNames: ['channel'] as const, registers }, () =>
    m.channelValues('autoDisables'),
  );
  new AccumulatedHistogram(
    { name: `${PREFIX}ledger_settlement_lag_seconds`, help: 'Time from a settlement being queued to its commit', labelNames: [] as const, registers },
    SETTLEMENT_BOUNDS_MS,
    () => [{ labels: {}, buckets: m.settlementLag }],
  );
}

function channelGauges({ Gauge }: PromClient, registry: Registry, rt: RelayRuntime): void {
  const registers = [registry];
  const channels = rt.channels;
  new Gauge({
    name: `${PREFIX}channel_status`,
    help: 'Stored status of each channel: 1 enabled, 2 disabled by an admin, 3 disabled automatically',
    labelNames: ['channel'] as const,
    aggregator: 'max',
    registers,
    collect() {
      this.reset();
      for (const c of channels.all()) this.set({ channel: String(c.id) }, c.status);
    },
  });
  new Gauge({
    name: `${PREFIX}channel_circuit_open`,
    help: 'Whether the circuit breaker keeps the channel out of selection now (1) or not (0)',
    labelNames: ['channel'] as const,
    aggregator: 'max',
    registers,
    collect() {
      this.reset();
      const now = Date.now();
      for (const c of channels.all()) if (c.status === CHANNEL_STATUS.enabled) this.set({ channel: String(c.id) }, channels.breaker.isOpen(c.id, now) ? 1 : 0);
    },
  });
  new Gauge({
    name: `${PREFIX}channel_consecutive_failures`,
    help: `Failures in a row that count against the channel (the circuit breaker opens at ${FAILURE_THRESHOLD})`,
    labelNames: ['channel'] as const,
    aggregator: 'max',
    registers,
    collect() {
      this.reset();
      for (const c of channels.all()) if (c.status === CHANNEL_STATUS.enabled) this.set({ channel: String(c.id) }, channels.breaker.failures(c.id));
    },
  });
}

function ledgerGauges({ Gauge }: PromClient, registry: Registry, rt: RelayRuntime): void {
  const registers = [registry];
  const { ledger, ctx } = rt;
  new Gauge({
    name: `${PREFIX}ledger_pending_settlements`,
    help: 'Settlements and reservations queued for the next ledger batch',
    registers,
    collect() {
      this.set(ledger.pending);
    },
  });
  new Gauge({
    name: `${PREFIX}ledger_oldest_pending_settlement_seconds`,
    help: 'How long the oldest queued settlement has waited (0: none queued)',
    aggregator: 'max',
    registers,
    collect() {
      this.set(ledger.oldestPendingMs() / 1000);
    },
  });
  new Gauge({
    name: `${PREFIX}ledger_database_down`,
    help: 'Whether the last ledger write failed for lack of the database (1) or not (0)',
    aggregator: 'max',
    registers,
    collect() {
      this.set(ledger.databaseDown ? 1 : 0);
    },
  });
  new Gauge({
    name: `${PREFIX}ledger_open_reservations`,
    help: 'Reservations of this process not settled yet: held in memory, or journaled in quota_reservations',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      this.set({ kind: 'memory' }, ledger.heldInMemory);
      // Indexed by (node, instance); a database that does not answer leaves the figure out.
      try {
        const row = await ctx.db
          .selectFrom('quota_reservations')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('node', '=', ledger.node)
          .where('instance', '=', ledger.instance)
          .executeTakeFirst();
        this.set({ kind: 'journaled' }, Number(row?.n ?? 0));
      } catch {
        this.remove({ kind: 'journaled' });
      }
    },
  });
}

function cacheGauges({ Gauge }: PromClient, registry: Registry, rt: RelayRuntime): void {
  const { channels, ctx } = rt;
  new Gauge({
    name: `${PREFIX}cache_age_seconds`,
    help: 'Seconds since the in-memory cache was last reloaded whole (channels: the selection index; options: the settings)',
    labelNames: ['cache'] as const,
    aggregator: 'max',
    registers: [registry],
    collect() {
      const now = Date.now();
      // Both are loaded before the server listens; a cache never loaded has no age to tell.
      this.reset();
      if (channels.builtAt) this.set({ cache: 'channels' }, (now - channels.builtAt) / 1000);
      if (ctx.options.loadedAt) this.set({ cache: 'options' }, (now - ctx.options.loadedAt) / 1000);
    },
  });
}

/** The registry of a running relay with metrics on (rt.metrics set). */
export function buildRegistry(rt: RelayRuntime, metrics: RelayMetrics): Registry {
  const prom = promClient();
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_RESOLUTION_MS });
  relayMetrics(prom, registry, metrics);
  channelGauges(prom, registry, rt);
  ledgerGauges(prom, registry, rt);
  cacheGauges(prom, registry, rt);
  return registry;
}
