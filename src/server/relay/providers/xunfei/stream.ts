/** Spark's frames (response.ts) -> OpenAI chat chunks; the last frame finishes with its usage. */
import { ChatChunkStream } from '../common/chunk-stream';
import { newId } from '../common/chunks';
import { isRecord, parseJson } from '../common/json';
import type { SseEvent, StreamStep } from '../types';
import { frameText, frameUsage, isLastFrame, xunfeiErrorOf } from './response';

export class XunfeiToOpenAIStream extends ChatChunkStream {
  private started = false;

  constructor(model: string, includeUsage: boolean) {
    super(model, includeUsage, newId('chatcmpl-'));
  }

  onEvent(event: SseEvent): StreamStep {
    const frame = parseJson(event.data);
    if (!isRecord(frame)) return this.nothing();
    const error = xunfeiErrorOf(frame);
    if (error) return { out: [], usage: this.usage, error };
    this.usage = frameUsage(frame) ?? this.usage;
    const content = frameText(frame);
    const delta = this.started ? { content } : { role: 'assistant', content };
    this.started = true;
    return this.emit(delta, isLastFrame(frame) ? 'stop' : null, content);
  }
}
