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
import type { UpstreamResponse } from '../upstream/pools';
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

/**
 * Answers the outcome once the client's stream is over. Throws (nothing was sent) when the
 * upstream failed before producing anything a client would see: the caller may retry.
 */
export async function relayStream(args: StreamArgs): Promise<Delivered> {
  const { call, reply, upstream, controller, converter, framing } = args;
  const counter = new CompletionCounter(args.upstreamModel, converter.textOf?.bind(converter));
  const parser = args.decoder ?? new SseParser();
  let writer: SseWriter | undefined;
  let usage: Usage | undefined;
  let firstResponseMs = 0;
  let upstreamError: UpstreamError | undefined;
  let sentErrorEvent = false;
  let ending: Ending = 'complete';
  let clientGone = false;
  let timedOut = false;

  const slowModel = /^o[13]/.test(args.upstreamModel);
  const inactivityMs = args.streamingTimeoutSeconds * 1000 * (slowModel ? 2 : 1);
  const timer =
    inactivityMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, inactivityMs)
      : undefined;
  const onClose = () => {
    if (!reply.raw.writableFinished) {
      clientGone = true;
      controller.abort();
    }
  };
  reply.raw.on('close', onClose);

  /**
   * What the client got so far, as a crash would leave it: usage seen, or the local count —
   * estimated when no encoding is loaded (loading one would stall every stream for a second
   * and hold tens of MB in a server whose upstreams all report usage).
   */
  const soFar = (): Delivered => {
    const counted = counter.estimate();
    const seen: Usage = usage ? { ...usage, completionTokens: Math.max(usage.completionTokens, counted) } : { promptTokens: call.promptEstimate(), completionTokens: counted };
    return delivered(args.outcome, { usage: seen, usageReported: usage !== undefined, isStream: true, firstResponseMs, ending: 'interrupted' });
  };
  let stopJournal: (() => void) | undefined;
  const open = (): SseWriter => {
    if (!writer) {
      reply.hijack();
      // A ping would break a JSON array: framed streams go without.
      writer = new SseWriter(reply.raw, framing ? 0 : undefined);
      writer.open(headerList(reply, framing?.headers ?? SSE_HEADERS));
      stopJournal = args.journalProgress?.(soFar);
    }
    return writer;
  };
  /** `bytes`: the upstream chunk these events came from, when they are exactly its content. */
  const deliver = async (events: SseEvent[], bytes?: Buffer): Promise<void> => {
    if (events.length === 0 || clientGone) return;
    if (events.some((e) => e.event === 'error')) sentErrorEvent = true;
    if (framing) await open().writeRaw(framing.format(events));
    else if (bytes) await open().writeRaw(bytes);
    else await open().write(events);
    if (writer!.closed) clientGone = true;
  };

  // The events of one upstream chunk (reused: steps are not kept, see StreamConverter.onEvent).
  const out: SseEvent[] = [];
  /**
   * Parses and converts what arrived into `out`; answers the bytes to send as they came when
   * that is exactly what `out` holds (else `out` is formatted). Everything that arrived since
   * the last step comes as one piece (see UpstreamBody), so a burst of small events costs one
   * parse and one client write, not one each.
   */
  let chunkError: UpstreamError | undefined;
  const onText = converter.onChunk
    ? (text: string, whole: boolean) => {
        const found = converter.onChunk!(text, whole);
        if (found) chunkError = found;
      }
    : undefined;
  const convert = (chunk: Buffer): Buffer | undefined => {
    const events = parser.push(chunk, onText);
    if (chunkError) {
      upstreamError = chunkError;
      return undefined;
    }
    counter.nextChunk(chunk.length);
    // A chunk of plain events the converter passes on one for one goes out as its own bytes;
    // so does its start when the events at its end produce nothing (`[DONE]`, which the relay
    // writes itself after the closing events, or a usage chunk the client did not ask for).
    let asReceived = parser.lastChunkWasPlainEvents;
    let droppedTailBytes = 0;
    for (const event of events) {
      if (firstResponseMs === 0) firstResponseMs = Date.now() - call.startedAt;
      const step = converter.onEvent(event);
      if (step.rawText !== undefined) counter.addRaw(step.rawText);
      else counter.add(step.text, event.data.length);
      if (step.usage) usage = step.usage;
      if (asReceived) {
        if (step.out.length === 0) droppedTailBytes += plainEventBytes(event.data);
        else if (droppedTailBytes > 0 || step.out.length !== 1 || step.out[0] !== event) asReceived = false;
      }
      for (const e of step.out) out.push(e);
      if (step.error) {
        upstreamError = step.error;
        return undefined;
      }
    }
    if (!asReceived || out.length === 0) return undefined;
    return droppedTailBytes > 0 ? chunk.subarray(0, chunk.length - droppedTailBytes) : chunk;
  };

  try {
    for await (const chunk of upstream.body) {
      timer?.refresh();
      const bytes = convert(chunk);
      if (out.length > 0) await deliver(out, bytes);
      // Nothing of this chunk stays referenced while the next one is awaited: the chunks of a
      // slow stream then die young instead of being promoted to the old generation, which
      // would make memory grow with the answer's length until the next full collection.
      out.length = 0;
      converter.release?.();
      if (upstreamError || clientGone) break;
    }
    if (!upstreamError && !clientGone) {
      for (const event of parser.end()) {
        const step = converter.onEvent(event);
        if (step.rawText !== undefined) counter.addRaw(step.rawText);
        else counter.add(step.text, event.data.length);
        if (step.usage) usage = step.usage;
        await deliver(step.out);
        if (step.error) upstreamError = step.error;
      }
    }
  } catch (err) {
    // The client may have left before this stream listened (attempt.ts aborted the call then).
    if (controller.reason instanceof ClientGone) clientGone = true;
    if (clientGone) ending = 'client_gone';
    else if (timedOut) ending = 'timeout';
    else {
      ending = 'upstream_broken';
      // Nothing reached the client yet: an ordinary failed attempt, retryable.
      if (!writer) throw transportError(err instanceof Error ? err.message : String(err));
    }
  } finally {
    if (timer) clearTimeout(timer);
    stopJournal?.();
    reply.raw.off('close', onClose);
    if (!upstream.body.destroyed) upstream.body.destroy();
  }
  if (clientGone) {
    // Nothing reached the client: nothing is billed (the reservation is given back).
    if (!writer) throw clientGoneError();
    ending = 'client_gone';
  }
  if (upstreamError) {
    if (!writer) throw fromUpstream(upstreamError);
    if (ending === 'complete') ending = 'upstream_broken';
  }

  const fallback = (): Usage => ({ promptTokens: call.promptTokens(), completionTokens: counter.total() });
  const fin = converter.finish(fallback);
  const finalUsage = fin.usage ?? usage;
  if (!clientGone) {
    if (ending === 'upstream_broken') {
      // A broken stream does not claim to be complete (Claude's message_stop, Responses' response.completed).
      await deliver(fin.out.filter((e) => e.event !== 'message_stop' && e.event !== 'response.completed'));
      if (!sentErrorEvent) {
        const error = upstreamError ? fromUpstream(upstreamError) : transportError('upstream stream ended unexpectedly');
        await deliver([errorEvent(call, error)]);
      }
      if (framing) writer?.end(framing.close());
    } else {
      // The closing events, [DONE] and the end of the response in one write.
      // The Responses stream ends with its response.completed event, no [DONE].
      const closing = framing ? framing.format(fin.out) + framing.close() : formatEvents(fin.out) + (call.spec.clientFormat === 'openai' && call.mode !== 'responses' ? 'data: [DONE]\n\n' : '');
      if (closing) open().end(closing);
    }
  }
  writer?.end();
  return delivered(args.outcome, {
    usage: finalUsage ?? fallback(),
    usageReported: usage !== undefined,
    isStream: true,
    firstResponseMs,
    ending,
  });
}
