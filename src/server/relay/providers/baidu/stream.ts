/**
 * ERNIE's stream: SSE `data:` events of `{id, created, sentence_id, is_end, result, usage}`
 * (the usage so far in every event, the last one billed); `is_end` closes it. A refusal comes
 * as a plain JSON `{error_code, error_msg}` body instead of events, seen in `onChunk`.
 */
import { ChatChunkStream } from '../common/chunk-stream';
import { newId } from '../common/chunks';
import { isRecord, parseJson, str } from '../common/json';
import type { SseEvent, StreamStep, UpstreamError } from '../types';
import { baiduErrorOf, baiduUsage } from './response';

export class BaiduToOpenAIStream extends ChatChunkStream {
  private started = false;

  constructor(model: string, includeUsage: boolean) {
    super(model, includeUsage, newId('chatcmpl-'));
  }

  onChunk(text: string): UpstreamError | void {
    if (this.started || !text.trimStart().startsWith('{')) return;
    return baiduErrorOf(parseJson(text.trim()));
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return this.nothing();
    const error = baiduErrorOf(data);
    if (error) return { out: [], usage: this.usage, error };
    this.usage = baiduUsage(data.usage) ?? this.usage;
    const result = str(data.result) ?? '';
    const delta = this.started ? { content: result } : { role: 'assistant', content: result };
    this.started = true;
    return this.emit(delta, data.is_end === true ? 'stop' : null, result);
  }
}
