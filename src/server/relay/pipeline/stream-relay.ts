/**
 * Relays one upstream event stream to the client as it arrives (docs/relay.md#streaming):
 *
 * - upstream body → SSE parser → provider converter → SSE writer, one event at a time; when
 *   the client's socket is full the loop waits for drain, which stops reading upstream (back-
 *   pressure end to end). Nothing is kept per chunk: completion text is counted as it passes.
 * - The client's headers are sent with the first event that has something to show. A stream
 *   that fails before that is an ordinary failed attempt and may still be retried elsewhere.
 * - STREAMING_TIMEOUT of upstream silence (doubled for o1/o3) ends the stream normally with
 *   what arrived. A client that leaves aborts the upstream call at once; a reset upstream
 *   ends the client's stream with an error event. Either way the request is billed for what
 *   was delivered: upstream usage where it arrived, else prompt + the counted completion.
 */
import { headerList, type RelayReply } from './exchange';
import type { SseEvent, StreamConverter, StreamDecoder, UpstreamError, Usage } from '../providers/types';
import { plainEventBytes, SseParser } from '../stream/sse-parser';
import { formatEvents, SSE_HEADERS, SseWriter } from '../stream/sse-writer';
import { claudeErrorBody, clientGoneError, fromUpstream, geminiErrorBody, openaiErrorBody, transportError, type RelayError } from '../errors';
import type { StreamFraming } from '../stream/json-array';
import type { UpstreamResponse } from '../upstream/call';
import { ClientGone, type UpstreamAbort } from '../upstream/abort';
import { delivered, type Delivered, type Ending, type RelayCall, type Route } from './call';
import { CompletionCounter } from './completion-counter';

export interface StreamArgs {
  call: RelayCall;
  reply: RelayReply;
  upstream: UpstreamResponse;
  /** Aborts the upstream request (client gone, inactivity). */
  controller: UpstreamAbort;
  converter: StreamConverter;
  /** The model sent upstream (tokenizer choice, o1/o3 timeout). */
  upstreamModel: string;
  streamingTimeoutSeconds: number;
  /** Where the request went (the rest of the outcome is what the stream decides). */
  outcome: Route;
  /** The upstream's framing when it is not SSE (AWS event stream); default the SSE parser. */
  decoder?: StreamDecoder;
  /** Events framed otherwise than as SSE (Gemini's JSON array): no raw upstream bytes, no pings. */
  framing?: StreamFraming;
  /**
   * Journals the delivery so far while the stream runs (settle.ts journalStreamProgress);
   * answers the function that stops it.
   */
  journalProgress?: (soFar: () => Delivered) => () => void;
}

function errorEvent(call: RelayCall, error: RelayError): SseEvent {
  if (call.spec.clientFormat === 'claude') return { event: 'error', data: JSON.stringify(claudeErrorBody(error, call.requestId)) };
  if (call.spec.clientFormat === 'gemini') return { data: JSON.stringify(geminiErrorBody(error, call.requestId)) };
  // The Responses stream's own error event (its SDKs read `type`; no sequence number is known here).
  if (call.mode === 'responses') {
    const { error: body } = openaiErrorBody(error, call.requestId);
    return { event: 'error', data: JSON.stringify({ type: 'error', code: body.code, message: body.message, param: body.param || null }) };
  }
  return { data: JSON.stringify(openaiErrorBody(error, call.requestId)) };
}

/** Whether one of `events` is an error event (a loop: no closure per delivery). */
function hasErrorEvent(events: SseEvent[]): boolean {
  for (const e of events) if (e.event === 'error') return true;
  return false;
}

/**
 * Answers the outcome once the client's stream is over. Throws (nothing was sent) when the
 * upstream failed before producing anything a client would see: the caller may retry.
 */
export function relayStream(args: StreamArgs): Promise<Delivered> {
  return new StreamSession(args).run();
}

/**
 * One relayed stream: its state lives in fields, each phase is a method. `run` is the whole
 * story — start (timer, close listener), pump the upstream, judge how it ended, finish the
 * client's stream and answer the outcome. Per request it allocates the session and its four
 * callbacks (timer, close listener, progress snapshot, chunk-text hook); nothing per chunk.
 */
class StreamSession {
  private readonly call: RelayCall;
  private readonly reply: RelayReply;
  private readonly upstream: UpstreamResponse;
  private readonly controller: UpstreamAbort;
  private readonly converter: StreamConverter;
  private readonly framing: StreamFraming | undefined;
  private readonly counter: CompletionCounter;
  private readonly parser: StreamDecoder;
  private writer: SseWriter | undefined = undefined;
  /** The last usage the upstream reported. */
  private usage: Usage | undefined = undefined;
  private firstResponseMs = 0;
  private upstreamError: UpstreamError | undefined = undefined;
  /** An error the converter found in the raw text of the current chunk (StreamConverter.onChunk). */
  private chunkError: UpstreamError | undefined = undefined;
  private sentErrorEvent = false;
  private ending: Ending = 'complete';
  private clientGone = false;
  private timedOut = false;
  private timer: NodeJS.Timeout | undefined = undefined;
  private stopJournal: (() => void) | undefined = undefined;
  // The events of one upstream chunk (reused: steps are not kept, see StreamConverter.onEvent).
  private readonly out: SseEvent[] = [];
  private readonly onText: ((text: string, whole: boolean) => void) | undefined;

  constructor(private readonly args: StreamArgs) {
    this.call = args.call;
    this.reply = args.reply;
    this.upstream = args.upstream;
    this.controller = args.controller;
    this.converter = args.converter;
    this.framing = args.framing;
    this.counter = new CompletionCounter(args.upstreamModel, args.converter.textOf?.bind(args.converter));
    this.parser = args.decoder ?? new SseParser();
    this.onText = args.converter.onChunk ? this.onChunkText : undefined;
  }

  async run(): Promise<Delivered> {
    this.start();
    try {
      await this.pump();
    } catch (err) {
      this.onBroken(err);
    } finally {
      this.stop();
    }
    this.judge();
    return this.finish();
  }

  /** Arms the inactivity timer (STREAMING_TIMEOUT, doubled for o1/o3) and listens for the client leaving. */
  private start(): void {
    const slowModel = /^o[13]/.test(this.args.upstreamModel);
    const inactivityMs = this.args.streamingTimeoutSeconds * 1000 * (slowModel ? 2 : 1);
    if (inactivityMs > 0) this.timer = setTimeout(this.onInactive, inactivityMs);
    this.reply.raw.on('close', this.onClose);
  }

  private readonly onInactive = (): void => {
    this.timedOut = true;
    this.controller.abort();
  };

  private readonly onClose = (): void => {
    if (!this.reply.raw.writableFinished) {
      this.clientGone = true;
      this.controller.abort();
    }
  };

  private readonly onChunkText = (text: string, whole: boolean): void => {
    const found = this.converter.onChunk!(text, whole);
    if (found) this.chunkError = found;
  };

  /**
   * What the client got so far, as a crash would leave it: usage seen, or the local count —
   * estimated when no encoding is loaded (loading one would stall every stream for a second
   * and hold tens of MB in a server whose upstreams all report usage).
   */
  private readonly soFar = (): Delivered => {
    const counted = this.counter.estimate();
    const usage = this.usage;
    const seen: Usage = usage ? { ...usage, completionTokens: Math.max(usage.completionTokens, counted) } : { promptTokens: this.call.promptEstimate(), completionTokens: counted };
    return delivered(this.args.outcome, { usage: seen, usageReported: usage !== undefined, isStream: true, firstResponseMs: this.firstResponseMs, ending: 'interrupted' });
  };

  /** Reads the upstream to its end, relaying each chunk, unless it fails or the client leaves. */
  private async pump(): Promise<void> {
    const out = this.out;
    for await (const chunk of this.upstream.body) {
      this.timer?.refresh();
      const bytes = this.convert(chunk);
      if (out.length > 0) await this.deliver(out, bytes);
      // Nothing of this chunk stays referenced while the next one is awaited: the chunks of a
      // slow stream then die young instead of being promoted to the old generation, which
      // would make memory grow with the answer's length until the next full collection.
      out.length = 0;
      this.converter.release?.();
      if (this.upstreamError || this.clientGone) break;
    }
    if (this.upstreamError || this.clientGone) return;
    for (const event of this.parser.end()) {
      const step = this.converter.onEvent(event);
      if (step.rawText !== undefined) this.counter.addRaw(step.rawText);
      else this.counter.add(step.text, event.data.length);
      if (step.usage) this.usage = step.usage;
      await this.deliver(step.out);
      if (step.error) this.upstreamError = step.error;
    }
  }

  /**
   * Parses and converts what arrived into `out`; answers the bytes to send as they came when
   * that is exactly what `out` holds (else `out` is formatted). Everything that arrived since
   * the last step comes as one piece (see UpstreamBody), so a burst of small events costs one
   * parse and one client write, not one each.
   */
  private convert(chunk: Buffer): Buffer | undefined {
    const events = this.parser.push(chunk, this.onText);
    if (this.chunkError) {
      this.upstreamError = this.chunkError;
      return undefined;
    }
    const { converter, counter, out } = this;
    counter.nextChunk(chunk.length);
    // A chunk of plain events the converter passes on one for one goes out as its own bytes;
    // so does its start when the events at its end produce nothing (`[DONE]`, which the relay
    // writes itself after the closing events, or a usage chunk the client did not ask for).
    let asReceived = this.parser.lastChunkWasPlainEvents;
    if (asReceived) converter.onPlainChunk?.();
    let droppedTailBytes = 0;
    for (const event of events) {
      if (this.firstResponseMs === 0) this.firstResponseMs = Date.now() - this.call.startedAt;
      const step = converter.onEvent(event);
      if (step.rawText !== undefined) counter.addRaw(step.rawText);
      else counter.add(step.text, event.data.length);
      if (step.usage) this.usage = step.usage;
      if (asReceived) {
        if (step.out.length === 0) droppedTailBytes += plainEventBytes(event.data);
        else if (droppedTailBytes > 0 || step.out.length !== 1 || step.out[0] !== event) asReceived = false;
      }
      for (const e of step.out) out.push(e);
      if (step.error) {
        this.upstreamError = step.error;
        return undefined;
      }
    }
    if (!asReceived || out.length === 0) return undefined;
    return droppedTailBytes > 0 ? chunk.subarray(0, chunk.length - droppedTailBytes) : chunk;
  }

  /** The client's stream, opened (headers sent, progress journaled) on first use. */
  private open(): SseWriter {
    if (!this.writer) {
      this.reply.hijack();
      // A ping would break a JSON array: framed streams go without.
      this.writer = new SseWriter(this.reply.raw, this.framing ? 0 : undefined);
      this.writer.open(headerList(this.reply, this.framing?.headers ?? SSE_HEADERS));
      this.stopJournal = this.args.journalProgress?.(this.soFar);
    }
    return this.writer;
  }

  /** `bytes`: the upstream chunk these events came from, when they are exactly its content. */
  private async deliver(events: SseEvent[], bytes?: Buffer): Promise<void> {
    if (events.length === 0 || this.clientGone) return;
    if (hasErrorEvent(events)) this.sentErrorEvent = true;
    const writer = this.open();
    if (this.framing) await writer.writeRaw(this.framing.format(events));
    else if (bytes) await writer.writeRaw(bytes);
    else await writer.write(events);
    if (writer.closed) this.clientGone = true;
  }

  /** The upstream read threw: the client left, the timer fired, or the upstream broke. */
  private onBroken(err: unknown): void {
    // The client may have left before this stream listened (attempt.ts aborted the call then).
    if (this.controller.reason instanceof ClientGone) this.clientGone = true;
    if (this.clientGone) this.ending = 'client_gone';
    else if (this.timedOut) this.ending = 'timeout';
    else {
      this.ending = 'upstream_broken';
      // Nothing reached the client yet: an ordinary failed attempt, retryable.
      if (!this.writer) throw transportError(err instanceof Error ? err.message : String(err));
    }
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.stopJournal?.();
    this.reply.raw.off('close', this.onClose);
    if (!this.upstream.body.destroyed) this.upstream.body.destroy();
  }

  /** Settles `ending`; throws when nothing reached the client (not billed, maybe retried). */
  private judge(): void {
    if (this.clientGone) {
      // Nothing reached the client: nothing is billed (the reservation is given back).
      if (!this.writer) throw clientGoneError();
      this.ending = 'client_gone';
    }
    if (this.upstreamError) {
      if (!this.writer) throw fromUpstream(this.upstreamError);
      if (this.ending === 'complete') this.ending = 'upstream_broken';
    }
  }

  /** Writes the closing events (or the error event of a broken stream) and answers the outcome. */
  private async finish(): Promise<Delivered> {
    const { call, counter, framing } = this;
    const fallback = (): Usage => ({ promptTokens: call.promptTokens(), completionTokens: counter.total() });
    const fin = this.converter.finish(fallback);
    const finalUsage = fin.usage ?? this.usage;
    if (!this.clientGone) {
      if (this.ending === 'upstream_broken') {
        // A broken stream does not claim to be complete (Claude's message_stop, Responses' response.completed).
        await this.deliver(fin.out.filter((e) => e.event !== 'message_stop' && e.event !== 'response.completed'));
        if (!this.sentErrorEvent) {
          const error = this.upstreamError ? fromUpstream(this.upstreamError) : transportError('upstream stream ended unexpectedly');
          await this.deliver([errorEvent(call, error)]);
        }
        if (framing) this.writer?.end(framing.close());
      } else {
        // The closing events, [DONE] and the end of the response in one write.
        // The Responses stream ends with its response.completed event, no [DONE].
        const closing = framing ? framing.format(fin.out) + framing.close() : formatEvents(fin.out) + (call.spec.clientFormat === 'openai' && call.mode !== 'responses' ? 'data: [DONE]\n\n' : '');
        if (closing) this.open().end(closing);
      }
    }
    this.writer?.end();
    return delivered(this.args.outcome, {
      usage: finalUsage ?? fallback(),
      usageReported: this.usage !== undefined,
      isStream: true,
      firstResponseMs: this.firstResponseMs,
      ending: this.ending,
    });
  }
}
