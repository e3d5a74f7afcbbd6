/**
 * What the relay counts while it serves, in plain numbers (read at scrape time by registry.ts):
 * requests, their latency (first byte, total), tokens and quota billed per channel, model and
 * status class; upstream errors, retries and automatic disables per channel.
 *
 * The hot path: one request makes one `answered` call (two Map lookups, a counter, two bucket
 * loops) and one `billed` call when its settlement commits; nothing is allocated once a
 * (channel, model) pair has been seen. Labels are made only at scrape time.
 *
 * Cardinality is bounded: channels are the operator's; models reach these calls only after
 * the distributor found a channel serving them (or an admin forced a channel), are folded as
 * routing folds them (custom GPTs) and, past MAX_MODELS distinct names, counted as `other`.
 */
import { selectionModel } from '../relay/channels/channel-index';
import { Buckets, LATENCY_BOUNDS_MS, SETTLEMENT_BOUNDS_MS } from './buckets';
import type { CounterSample, HistogramSample } from './accumulated';

/** Distinct model names given a label of their own; any further one is `other`. */
export const MAX_MODELS = 200;
export const OTHER_MODEL = 'other';
/** Label of requests refused before a channel (or a model) was chosen: bad key, bad body, no channel. */
export const NO_CHANNEL = 'none';
const NO_CHANNEL_ID = 0;
const NO_MODEL = 'none';

/** Status classes by hundreds (1xx … 5xx); anything else counts as 5xx. */
const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

function classIndex(status: number): number {
  const i = Math.floor(status / 100) - 1;
  return i >= 0 && i < CLASSES.length ? i : 4;
}

function channelLabel(id: number): string {
  return id === NO_CHANNEL_ID ? NO_CHANNEL : String(id);
}

class RequestSeries {
  requests = 0;
  readonly firstByte = new Buckets(LATENCY_BOUNDS_MS);
  readonly total = new Buckets(LATENCY_BOUNDS_MS);
}

class BilledSeries {
  promptTokens = 0;
  completionTokens = 0;
  quota = 0;
}

class ChannelSeries {
  retries = 0;
  autoDisables = 0;
  /** Failed upstream attempts per status class. */
  readonly errors = new Float64Array(CLASSES.length);
}

type RequestLabels = 'channel' | 'model' | 'status_class';
type UsageLabels = 'channel' | 'model';

export class RelayMetrics {
  /** channel id → model label → series per status class. */
  readonly #requests = new Map<number, Map<string, (RequestSeries | undefined)[]>>();
  /** channel id → model label → what was billed. */
  readonly #billed = new Map<number, Map<string, BilledSeries>>();
  readonly #channels = new Map<number, ChannelSeries>();
  /** Model name as asked → its label (bounded: MAX_MODELS entries). */
  readonly #models = new Map<string, string>();
  /** Queued to committed, per settlement (the ledger reports it). */
  readonly settlementLag = new Buckets(SETTLEMENT_BOUNDS_MS);

  #modelLabel(model: string): string {
    const known = this.#models.get(model);
    if (known !== undefined) return known;
    if (this.#models.size >= MAX_MODELS) return OTHER_MODEL;
    const label = selectionModel(model);
    this.#models.set(model, label);
    return label;
  }

  #requestSeries(channelId: number, model: string, status: number): RequestSeries {
    let byModel = this.#requests.get(channelId);
    if (!byModel) this.#requests.set(channelId, (byModel = new Map()));
    const label = model === NO_MODEL ? NO_MODEL : this.#modelLabel(model);
    let byClass = byModel.get(label);
    if (!byClass) byModel.set(label, (byClass = []));
    const i = classIndex(status);
    return (byClass[i] ??= new RequestSeries());
  }

  #channel(channelId: number): ChannelSeries {
    let series = this.#channels.get(channelId);
    if (!series) this.#channels.set(channelId, (series = new ChannelSeries()));
    return series;
  }

  /**
   * A request that reached the channel stage ended: answered (the status sent, 2xx for an
   * answer that started), or failed with `status`. `channelId` 0: none was tried. Times from
   * when the relay had read the request.
   */
  answered(channelId: number, model: string, status: number, firstByteMs: number, totalMs: number): void {
    const series = this.#requestSeries(channelId, model, status);
    series.requests++;
    series.firstByte.observeMs(firstByteMs);
    series.total.observeMs(totalMs);
  }

  /** A request refused before a model and channel were settled (key, body, limits, no channel). */
  refused(status: number): void {
    this.#requestSeries(NO_CHANNEL_ID, NO_MODEL, status).requests++;
  }

  /** A committed settlement: the tokens of the answer and the quota really charged. */
  billed(channelId: number, model: string, promptTokens: number, completionTokens: number, quota: number): void {
    let byModel = this.#billed.get(channelId);
    if (!byModel) this.#billed.set(channelId, (byModel = new Map()));
    const label = this.#modelLabel(model);
    let series = byModel.get(label);
    if (!series) byModel.set(label, (series = new BilledSeries()));
    series.promptTokens += promptTokens;
    series.completionTokens += completionTokens;
    series.quota += quota;
  }

  /** An upstream attempt failed (it may be retried). */
  upstreamFailed(channelId: number, status: number): void {
    this.#channel(channelId).errors[classIndex(status)]!++;
  }

  /** The request moves on from this channel to another attempt. */
  retried(channelId: number): void {
    this.#channel(channelId).retries++;
  }

  autoDisabled(channelId: number): void {
    this.#channel(channelId).autoDisables++;
  }

  // What the exporters read at scrape time.

  *requestCounts(): Generator<CounterSample<RequestLabels>> {
    for (const [labels, series] of this.#requestSeriesAll()) yield { labels, value: series.requests };
  }

  *firstByteTimes(): Generator<HistogramSample<RequestLabels>> {
    for (const [labels, series] of this.#requestSeriesAll()) yield { labels, buckets: series.firstByte };
  }

  *totalTimes(): Generator<HistogramSample<RequestLabels>> {
    for (const [labels, series] of this.#requestSeriesAll()) yield { labels, buckets: series.total };
  }

  *#requestSeriesAll(): Generator<[Record<RequestLabels, string>, RequestSeries]> {
    for (const [channelId, byModel] of this.#requests) {
      for (const [model, byClass] of byModel) {
        for (let i = 0; i < byClass.length; i++) {
          const series = byClass[i];
          if (series) yield [{ channel: channelLabel(channelId), model, status_class: CLASSES[i]! }, series];
        }
      }
    }
  }

  *billedValues(field: keyof BilledSeries): Generator<CounterSample<UsageLabels>> {
    for (const [channelId, byModel] of this.#billed) {
      for (const [model, series] of byModel) yield { labels: { channel: channelLabel(channelId), model }, value: series[field] };
    }
  }

  *channelValues(field: 'retries' | 'autoDisables'): Generator<CounterSample<'channel'>> {
    for (const [channelId, series] of this.#channels) if (series[field] > 0) yield { labels: { channel: channelLabel(channelId) }, value: series[field] };
  }

  *upstreamErrors(): Generator<CounterSample<'channel' | 'status_class'>> {
    for (const [channelId, series] of this.#channels) {
      for (let i = 0; i < CLASSES.length; i++) {
        if (series.errors[i]! > 0) yield { labels: { channel: channelLabel(channelId), status_class: CLASSES[i]! }, value: series.errors[i]! };
      }
    }
  }
}
