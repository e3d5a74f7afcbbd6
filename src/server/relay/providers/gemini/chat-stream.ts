/**
 * Gemini's `streamGenerateContent?alt=sse` events -> OpenAI chunks (docs/relay.md#gemini): one
 * chunk per event and candidate; a STOP finish follows as its own chunk; tool calls carry a
 * running index. Usage is the last event's; without any, the local count (Ours: the
 * reference billed nothing).
 */
import { ChatChunkStream } from '../common/chunk-stream';
import { chatChunk, newId, sseJson } from '../common/chunks';
import { type JsonObject, arr, obj } from '../common/json';
import type { SseEvent, StreamStep } from '../types';
import { candidateOutput } from './parts';
import { readGeminiEvent } from './stream-event';
import { finishReasonFromGemini } from './usage';

export class GeminiToOpenAIStream extends ChatChunkStream {
  private toolCalls = 0;
  private roleSent = false;

  constructor(model: string, includeUsage: boolean) {
    super(model, includeUsage, newId('chatcmpl-'));
  }

  onEvent(event: SseEvent): StreamStep {
    const read = readGeminiEvent(event);
    if (!('data' in read)) return { out: [], usage: this.usage, ...read };
    this.usage = read.usage ?? this.usage;
    const { data } = read;
    const out: SseEvent[] = [];
    let text = '';
    arr(data.candidates).forEach((raw, position) => {
      const candidate = obj(raw);
      const index = typeof candidate.index === 'number' ? candidate.index : position;
      const output = candidateOutput(candidate);
      const delta: JsonObject = {};
      if (!this.roleSent) delta.role = 'assistant';
      const content = output.text.join('');
      if (content) delta.content = content;
      if (output.reasoning) delta.reasoning_content = output.reasoning;
      if (output.toolCalls.length > 0) {
        delta.tool_calls = output.toolCalls.map((call) => ({ index: this.toolCalls++, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
      }
      text += content + output.reasoning + output.toolCalls.map((c) => c.name + c.arguments).join('');
      const finish = finishReasonFromGemini(candidate.finishReason, output.toolCalls.length > 0);
      const hasDelta = Object.keys(delta).length > 0;
      if (finish === 'stop') {
        if (hasDelta) out.push(this.chunk(index, delta, null));
        out.push(this.chunk(index, {}, 'stop'));
      } else if (hasDelta || finish) {
        out.push(this.chunk(index, delta, finish));
      }
      this.roleSent = true;
    });
    return { out, usage: this.usage, ...(text ? { text } : {}) };
  }

  private chunk(index: number, delta: JsonObject, finishReason: string | null): SseEvent {
    const chunk = chatChunk(this.meta, delta, finishReason);
    (chunk.choices as JsonObject[])[0].index = index;
    return sseJson(chunk);
  }
}
