/**
 * Zhipu v3's stream (SSE): `event: add` events carry the next piece of text as plain data
 * (a piece with newlines spans several data lines), `event: finish` ends it with the usage in
 * a `meta:` line (`{task_id, request_id, task_status, usage}`), `event: error` and
 * `event: interrupted` end it with a message. The relay's SSE parser keeps
 * `meta` on the event as `extra` (`Provider.sseExtraField`).
 */
import { newId } from '../common/chunks';
import { ChatChunkStream } from '../common/chunk-stream';
import { isRecord, parseJson } from '../common/json';
import { usageFromOpenAI } from '../common/usage';
import type { SseEvent, StreamStep } from '../types';

/** The non-standard SSE field of the `finish` event that carries the usage. */
export const ZHIPU_META_FIELD = 'meta';

export class ZhipuToOpenAIStream extends ChatChunkStream {
  private started = false;

  constructor(model: string, includeUsage: boolean) {
    super(model, includeUsage, newId('chatcmpl-'));
  }

  onEvent(event: SseEvent): StreamStep {
    switch (event.event) {
      case 'add': {
        const delta = this.started ? { content: event.data } : { role: 'assistant', content: event.data };
        this.started = true;
        return this.emit(delta, null, event.data);
      }
      case 'finish': {
        const meta = event.extra === undefined ? undefined : parseJson(event.extra);
        if (isRecord(meta)) this.usage = usageFromOpenAI(meta.usage) ?? this.usage;
        return this.emit({}, 'stop');
      }
      case 'error':
      case 'interrupted':
        return { out: [], usage: this.usage, error: { status: 500, message: event.data || `zhipu stream ${event.event}`, type: 'zhipu_error', code: event.event } };
      default:
        return this.nothing();
    }
  }
}
