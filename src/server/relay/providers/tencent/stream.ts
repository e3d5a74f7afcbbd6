/**
 * Hunyuan's stream: SSE `data:` events of `{Id, Created, Choices: [{Delta: {Role, Content},
 * FinishReason}], Usage}` (the usage so far in every event; `FinishReason: "stop"` on the
 * last). A refusal comes as the plain JSON `{Response: {Error}}` instead, seen in `onChunk`.
 */
import { ChatChunkStream } from '../common/chunk-stream';
import { newId } from '../common/chunks';
import { arr, isRecord, obj, parseJson, str } from '../common/json';
import type { SseEvent, StreamStep, UpstreamError } from '../types';
import { tencentErrorOf, tencentUsage } from './response';

export class TencentToOpenAIStream extends ChatChunkStream {
  private started = false;

  constructor(model: string, includeUsage: boolean) {
    super(model, includeUsage, newId('chatcmpl-'));
  }

  onChunk(text: string): UpstreamError | void {
    if (this.started || !text.trimStart().startsWith('{')) return;
    return tencentErrorOf(parseJson(text.trim()));
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return this.nothing();
    const error = tencentErrorOf(data);
    if (error) return { out: [], usage: this.usage, error };
    this.usage = tencentUsage(data.Usage) ?? this.usage;
    const choice = obj(arr(data.Choices)[0]);
    const content = str(obj(choice.Delta).Content) ?? '';
    const finish = str(choice.FinishReason) || null;
    const delta = this.started ? { content } : { role: 'assistant', content };
    this.started = true;
    return this.emit(delta, finish, content);
  }
}
