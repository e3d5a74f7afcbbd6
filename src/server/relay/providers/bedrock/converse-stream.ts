/**
 * Bedrock ConverseStream events (decoded by event-stream.ts) -> OpenAI chat chunks:
 * messageStart (role), contentBlockStart (a tool call's id and name), contentBlockDelta (text,
 * reasoning, a tool call's input JSON in pieces), messageStop (finish reason), metadata (usage,
 * billed); an exception ends the stream as an error.
 */
import { type ChunkMeta, chatChunk, newId, nowSeconds, sseJson, usageChunk } from '../common/chunks';
import { errorFromBody } from '../common/errors';
import { type JsonObject, isRecord, num, obj, parseJson, str } from '../common/json';
import { finalUsage } from '../common/usage';
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../types';
import { finishReasonFromConverse, reasoningText, usageFromConverse } from './converse-response';

export class ConverseToOpenAIStream implements StreamConverter {
  private readonly meta: ChunkMeta;
  private usage: Usage | undefined;
  /** Converse block index -> OpenAI tool call index. */
  private readonly toolIndex = new Map<number, number>();

  constructor(
    model: string,
    private readonly includeUsage: boolean,
  ) {
    this.meta = { id: newId('chatcmpl-'), created: nowSeconds(), model };
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return { out: [], usage: this.usage };
    switch (event.event) {
      case 'messageStart':
        return this.emit({ role: 'assistant', content: '' });
      case 'contentBlockStart':
        return this.blockStart(num(data.contentBlockIndex), obj(obj(data.start).toolUse));
      case 'contentBlockDelta':
        return this.blockDelta(num(data.contentBlockIndex), obj(data.delta));
      case 'messageStop':
        return this.emit({}, finishReasonFromConverse(data.stopReason));
      case 'metadata':
        this.usage = usageFromConverse(data.usage) ?? this.usage;
        return { out: [], usage: this.usage };
      case 'error':
        return { out: [], usage: this.usage, error: errorFromBody(500, data) };
      default:
        // contentBlockStop and events this relay has no use for.
        return { out: [], usage: this.usage };
    }
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const usage = finalUsage(this.usage, fallbackUsage);
    return { out: this.includeUsage && usage ? [sseJson(usageChunk(this.meta, usage))] : [], usage };
  }

  private blockStart(index: number, toolUse: JsonObject): StreamStep {
    if (!str(toolUse.name)) return { out: [], usage: this.usage };
    const toolIndex = this.toolIndex.size;
    this.toolIndex.set(index, toolIndex);
    const name = str(toolUse.name) ?? '';
    return this.emit({ tool_calls: [{ index: toolIndex, id: str(toolUse.toolUseId) ?? newId('call_'), type: 'function', function: { name, arguments: '' } }] }, null, name);
  }

  private blockDelta(index: number, delta: JsonObject): StreamStep {
    if (typeof delta.text === 'string') return this.emit({ content: delta.text }, null, delta.text);
    if (isRecord(delta.reasoningContent)) {
      const text = reasoningText(delta.reasoningContent);
      return text ? this.emit({ reasoning_content: text }, null, text) : { out: [], usage: this.usage };
    }
    if (isRecord(delta.toolUse)) {
      const partial = str(delta.toolUse.input) ?? '';
      return this.emit({ tool_calls: [{ index: this.toolIndex.get(index) ?? 0, function: { arguments: partial } }] }, null, partial);
    }
    return { out: [], usage: this.usage };
  }

  private emit(delta: JsonObject, finishReason: string | null = null, text?: string): StreamStep {
    return { out: [sseJson(chatChunk(this.meta, delta, finishReason))], usage: this.usage, ...(text ? { text } : {}) };
  }
}
