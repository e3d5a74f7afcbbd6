/**
 * One relay request as the pipeline carries it from step to step: who calls (token or
 * playground session), what they asked for, its price, and what each attempt produced.
 */
import type { RelayChannel } from '../channels/channel-index';
import type { PriceInfo } from '../billing/price';
import type { RelayMode, Usage } from '../providers/types';
import type { EndpointSpec } from './endpoints';

export interface Caller {
  userId: number;
  username: string;
  /** The user's own group. */
  userGroup: string;
  role: number;
  acceptUnset: boolean;
  userSetting: Record<string, unknown>;
  /** 0 for the playground. */
  tokenId: number;
  /** `playground-<group>` for the playground. */
  tokenName: string;
  /** The token has a quota of its own that reservations must respect. */
  tokenLimited: boolean;
  /** The group the request is routed and billed in. */
  group: string;
  /** An admin's `sk-KEY-CHANNELID`. */
  forced: RelayChannel | undefined;
}

export interface RelayCall {
  requestId: string;
  /** Date.now() when the request arrived. */
  startedAt: number;
  spec: EndpointSpec;
  mode: RelayMode;
  body: Record<string, unknown>;
  /** The request body as received (pass-through mode). */
  rawBody: Buffer | undefined;
  /** The model asked for: routing, pricing and the log use it. */
  model: string;
  stream: boolean;
  /** The client asked `stream_options.include_usage`. */
  includeUsage: boolean;
  maxTokens: number;
  caller: Caller;
  price: PriceInfo;
  /** Local prompt count, computed on first use only (most answers bring their own usage). */
  promptTokens(): number;
  /** The count when it is known or cheap, else an estimate that loads no encoding (stream progress). */
  promptEstimate(): number;
  clientHeaders: Record<string, string>;
  clientQuery: Record<string, string>;
  /** Channel ids tried, in order. */
  tried: number[];
  /** Length of the uploaded audio (transcription and translation). */
  audioSeconds?: number;
  /** What was reserved for it, once it was (streams journal their progress against it). */
  reservation: { id: string; amount: number } | undefined;
  /** `/v1/responses`: the stored conversation `previous_response_id` named (responses/exchange.ts). */
  responses?: ResponsesCallState;
}

export interface ResponsesCallState {
  /** The input and output items of the stored response, when it was stored here (converted). */
  history?: Record<string, unknown>[];
}

/**
 * How an attempt that reached the client ended; `interrupted`: still running when the
 * process died (a progress record, settled by the next start).
 */
export type Ending = 'complete' | 'client_gone' | 'upstream_broken' | 'timeout' | 'interrupted';

/** What an attempt knows once the upstream answered: where the request went. */
export type Route = Pick<Delivered, 'channel' | 'upstreamModel' | 'isModelMapped' | 'reasoningEffort' | 'claudeUpstream'>;
/** How the answer went. */
export type Answer = Omit<Delivered, keyof Route>;

/**
 * The outcome of a delivered attempt, every field written in one order (no spreads of objects
 * of varying shapes): it is built once per request and read by the settlement.
 */
export function delivered(route: Route, answer: Answer): Delivered {
  return {
    channel: route.channel,
    upstreamModel: route.upstreamModel,
    isModelMapped: route.isModelMapped,
    reasoningEffort: route.reasoningEffort,
    claudeUpstream: route.claudeUpstream,
    usage: answer.usage,
    usageReported: answer.usageReported,
    isStream: answer.isStream,
    firstResponseMs: answer.firstResponseMs,
    ending: answer.ending,
    logExtra: answer.logExtra,
    fixedQuota: answer.fixedQuota,
  };
}

export interface Delivered {
  channel: RelayChannel;
  usage: Usage;
  /** Upstream reported usage itself (else it was counted locally). */
  usageReported: boolean;
  isStream: boolean;
  /** Milliseconds to the first streamed event (0 for non-stream answers). */
  firstResponseMs: number;
  upstreamModel: string;
  isModelMapped: boolean;
  reasoningEffort?: string;
  ending: Ending;
  /** Extra text for the log content (image size and quality …). */
  logExtra?: string;
  /** A fixed quota (images) instead of the usage formula. */
  fixedQuota?: number;
  /** The upstream is Claude: the reference's Claude formula (truncating). */
  claudeUpstream: boolean;
}
