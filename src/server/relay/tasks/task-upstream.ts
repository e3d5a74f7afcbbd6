/**
 * One JSON call to a task upstream (Midjourney proxy, Suno API). Task traffic is a few calls
 * per task, so it goes through undici's plain `request` with a deadline rather than the
 * relay's streaming pools. The body is read whole and bounded.
 */
import { request, type Dispatcher } from 'undici';
import type { TaskRelay } from './task-relay';

/** How long one poll of a channel's tasks may take. */
const POLL_TIMEOUT_MS = 15_000;
/** Largest upstream answer read (task lists of a few hundred tasks fit easily). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface UpstreamCallOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The channel's proxy dispatcher (`rt.pools.proxyDispatcher`), if it has a proxy. */
  dispatcher?: Dispatcher;
}

/** Sends the call; rejects on network errors, time-outs and oversized answers. */
export async function callTaskUpstream(url: string, options: UpstreamCallOptions): Promise<UpstreamAnswer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const answer = await request(url, { method: options.method, headers: options.headers, body: options.body, signal, ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}) });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) {
      answer.body.destroy();
      throw new Error('upstream answer too large');
    }
    chunks.push(chunk as Buffer);
  }
  return { status: answer.statusCode, headers: answer.headers, text: Buffer.concat(chunks).toString('utf8') };
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One poll of a channel's tasks: POSTs `body` as JSON and answers the parsed answer of an
 * HTTP 200, or undefined (said in the log) when the call failed or the answer is unusable, so
 * the caller skips that channel for the round.
 */
export async function pollTaskUpstream(rt: TaskRelay, channel: { proxy?: string }, what: string, url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  let answer;
  try {
    const dispatcher = rt.pools.proxyDispatcher(channel.proxy);
    answer = await callTaskUpstream(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), timeoutMs: POLL_TIMEOUT_MS, dispatcher });
  } catch (err) {
    rt.log.warn(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  const parsed = answer.status === 200 ? parseJson(answer.text) : undefined;
  if (parsed === undefined) rt.log.warn(`${what}: unusable answer (HTTP ${answer.status})`);
  return parsed;
}
