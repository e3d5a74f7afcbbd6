/**
 * Scripted replies shared by the model-API fakes (OpenAI, Claude, Gemini). A test queues what
 * the next request should get with `fake.script(reply)` (first in, first out; a function gets
 * the request and returns the reply); unqueued requests get `fake.defaultReply`. Each fake
 * renders the reply in its own provider's wire format.
 */
import type { ServerResponse } from 'node:http';

export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ScriptedReply {
  /** Answer text (default `Hello from the fake upstream.`); streamed word by word. */
  text?: string;
  /** Reasoning / thinking text, sent before the answer. */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Reported usage; defaults: prompt 12, completion = number of streamed pieces. */
  usage?: { prompt?: number; completion?: number; cacheRead?: number; cacheCreation?: number; reasoning?: number };
  /** Report no usage at all (tests the local-count fallback). */
  noUsage?: boolean;
  /** The provider's own finish/stop reason (default: natural end, or tool calls). */
  finishReason?: string;
  /** Answer with an error in the provider's format instead. */
  error?: { status: number; message: string; type?: string; code?: string | number };
  /** Answer with this status and raw text body (e.g. an HTML 502 page). */
  rawError?: { status: number; body: string };
  /** Wait this long before answering at all (slow upstream, timeouts). */
  firstByteDelayMs?: number;
  /** Wait this long between stream events (slow stream). */
  delayMs?: number;
  /** Destroy the connection after this many stream events (reset mid-stream). */
  resetAfter?: number;
  /** After this many stream events, send the provider's error event and end the stream. */
  streamErrorAfter?: number;
  /** Send exactly this JSON body (non-stream) instead of a generated one. */
  body?: unknown;
  /** Send exactly these events (stream) instead of generated ones; objects are sent as JSON. */
  events?: { event?: string; data: unknown }[];
}

export type ScriptEntry<Req> = ScriptedReply | ((request: Req) => ScriptedReply);

export const DEFAULT_TEXT = 'Hello from the fake upstream.';
export const DEFAULT_PROMPT_TOKENS = 12;

export class ScriptQueue<Req> {
  private readonly queue: ScriptEntry<Req>[] = [];
  defaultReply: ScriptedReply = {};

  push(...entries: ScriptEntry<Req>[]): void {
    this.queue.push(...entries);
  }

  next(request: Req): ScriptedReply {
    const entry = this.queue.shift() ?? this.defaultReply;
    return typeof entry === 'function' ? entry(request) : entry;
  }

  clear(): void {
    this.queue.length = 0;
  }
}

/** Splits text into stream pieces: words with their following space. */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface SseOut {
  event?: string;
  data: unknown;
}

/**
 * Writes events as SSE with the reply's pacing; `resetAfter` destroys the socket mid-stream,
 * `errorEvent` replaces the rest of the stream after `streamErrorAfter` events.
 */
export async function writeSse(res: ServerResponse, events: SseOut[], reply: ScriptedReply, options: { errorEvent?: SseOut; lineEnd?: string } = {}): Promise<void> {
  const end = options.lineEnd ?? '\n';
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  let sent = 0;
  for (const ev of events) {
    if (reply.resetAfter !== undefined && sent >= reply.resetAfter) {
      // Let what was written reach the client first: the reset must come mid-stream.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      await sleep(20);
      res.destroy();
      return;
    }
    if (reply.streamErrorAfter !== undefined && sent >= reply.streamErrorAfter && options.errorEvent) {
      res.write(format(options.errorEvent, end));
      res.end();
      return;
    }
    if (reply.delayMs && sent > 0) await sleep(reply.delayMs);
    if (res.destroyed) return;
    res.write(format(ev, end));
    sent += 1;
  }
  res.end();
}

function format(ev: SseOut, end: string): string {
  const data = typeof ev.data === 'string' ? ev.data : JSON.stringify(ev.data);
  return (ev.event ? `event: ${ev.event}${end}` : '') + `data: ${data}${end}${end}`;
}
