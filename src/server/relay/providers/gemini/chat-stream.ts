/**
 * Gemini's `streamGenerateContent?alt=sse` events -> OpenAI chunks (docs/relay.md#gemini): one
 * chunk per event and candidate; a STOP finish follows as its own chunk; tool calls carry a
 * running index. Usage is the last event's; without any, the local count (Ours: the
 * reference billed nothing).
 */
import { type ChunkMeta, chatChunk, newId, sseJson, usageChunk } from '../common/chunks';
import { errorFromBody } from '../common/errors';
import { type JsonObject, arr, isRecord, obj, parseJson } from '../common/json';
import { finalUsage } from '../common/usage';
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../types';
import { candidateOutput } from './parts';
import { finishReasonFromGemini, usageFromGemini } from './usage';
import { nowSeconds } from '../../../../shared/time';

export class GeminiToOpenAIStream implements StreamConverter {
  private readonly meta: ChunkMeta;
  private usage: Usage | undefined;
  private toolCalls = 0;
  private roleSent = false;

  constructor(
    model: string,
    private readonly includeUsage: boolean,
  ) {
    this.meta = { id: newId('chatcmpl-'), created: nowSeconds(), model };
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return { out: [], usage: this.usage };
    if (isRecord(data.error)) return { out: [], usage: this.usage, error: errorFromBody(500, data) };
    const usage = usageFromGemini(data.usageMetadata);
    if (usage) this.usage = usage;
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

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const usage = finalUsage(this.usage, fallbackUsage);
    return { out: this.includeUsage && usage ? [sseJson(usageChunk(this.meta, usage))] : [], usage };
  }

  private chunk(index: number, delta: JsonObject, finishReason: string | null): SseEvent {
    const chunk = chatChunk(this.meta, delta, finishReason);
    (chunk.choices as JsonObject[])[0].index = index;
    return sseJson(chunk);
  }
}
