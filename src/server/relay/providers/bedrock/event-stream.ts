/**
 * Bedrock's streams (`application/vnd.amazon.eventstream`) -> events for the stream
 * converters. Each binary message (a 4-byte total length, headers, payload, CRCs) is checked
 * and decoded by `@smithy/core`'s EventStreamCodec, the codec of AWS's own SDK; this file only
 * waits until a whole message arrived (its length prefix says how long it is).
 *
 * - `:message-type: event`: an event named by `:event-type`. InvokeModel's `chunk` events carry
 *   Claude's own event as base64 `bytes`, handed on as `{data}` (Claude's stream converters read
 *   its `type`); the Converse API's events (`messageStart`, `contentBlockDelta`, `metadata` …)
 *   are handed on as `{event, data}`.
 * - `:message-type: exception` (`:exception-type`, payload `{message}`) and `error`
 *   (`:error-code`, `:error-message`): an `error` event in Claude's shape
 *   (`{type:"error", error:{type, message}}`), which every converter ends the stream on.
 */
import type { EventStreamCodec } from '@smithy/core/event-streams';
import { onFirstUse, packageOnFirstUse } from '../../../plumbing/on-first-use';
import { isRecord, obj, parseJson, str } from '../common/json';
import type { SseEvent, StreamDecoder } from '../types';

/** Prelude (total and header lengths, prelude CRC) and message CRC: the smallest message. */
const MIN_MESSAGE_BYTES = 16;
/** AWS's limit of one event-stream message is far below this; a larger length is a broken stream. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const smithySerde = packageOnFirstUse<typeof import('@smithy/core/serde')>('@smithy/core/serde');
const smithyEventStreams = packageOnFirstUse<typeof import('@smithy/core/event-streams')>('@smithy/core/event-streams');
const codec = onFirstUse(() => new (smithyEventStreams().EventStreamCodec)(smithySerde().toUtf8, smithySerde().fromUtf8));

type Headers = ReturnType<EventStreamCodec['decode']>['headers'];

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name]?.value;
  return typeof value === 'string' ? value : undefined;
}

export function claudeErrorEvent(type: string, message: string): SseEvent {
  return { event: 'error', data: JSON.stringify({ type: 'error', error: { type, message } }) };
}

export class EventStreamDecoder implements StreamDecoder {
  readonly lastChunkWasPlainEvents = false;
  /** Bytes of a message not complete yet. */
  private pending: Buffer | undefined;

  /** `invoke`: InvokeModel's chunk events (Claude's events inside); else the Converse API's events. */
  constructor(private readonly kind: 'invoke' | 'converse') {}

  push(chunk: Uint8Array): SseEvent[] {
    const bytes = this.pending ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const events: SseEvent[] = [];
    let offset = 0;
    while (bytes.length - offset >= 4) {
      const total = bytes.readUInt32BE(offset);
      if (total < MIN_MESSAGE_BYTES || total > MAX_MESSAGE_BYTES) throw new Error(`malformed event stream message (length ${total})`);
      if (bytes.length - offset < total) break;
      events.push(this.event(codec().decode(bytes.subarray(offset, offset + total))));
      offset += total;
    }
    // A copy: the rest must not keep the whole read alive.
    this.pending = offset < bytes.length ? Buffer.from(bytes.subarray(offset)) : undefined;
    return events;
  }

  end(): SseEvent[] {
    if (this.pending) throw new Error('event stream ended inside a message');
    return [];
  }

  private event(message: ReturnType<EventStreamCodec['decode']>): SseEvent {
    const payload = smithySerde().toUtf8(message.body);
    const messageType = header(message.headers, ':message-type');
    if (messageType === 'exception') {
      const body = obj(parseJson(payload));
      return claudeErrorEvent(header(message.headers, ':exception-type') ?? 'exception', str(body.message) ?? str(body.Message) ?? payload);
    }
    if (messageType === 'error') {
      return claudeErrorEvent(header(message.headers, ':error-code') ?? 'error', header(message.headers, ':error-message') ?? payload);
    }
    const eventType = header(message.headers, ':event-type') ?? '';
    if (this.kind === 'converse') return { event: eventType, data: payload };
    const body = parseJson(payload);
    const inner = isRecord(body) ? str(body.bytes) : undefined;
    if (eventType !== 'chunk' || inner === undefined) return claudeErrorEvent('unknown_event', `unexpected Bedrock stream event ${eventType}`);
    return { data: Buffer.from(inner, 'base64').toString('utf8') };
  }
}
