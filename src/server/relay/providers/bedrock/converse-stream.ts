/**
 * Bedrock ConverseStream events (decoded by event-stream.ts) -> OpenAI chat chunks:
 * messageStart (role), contentBlockStart (a tool call's id and name), contentBlockDelta (text,
 * reasoning, a tool call's input JSON in pieces), messageStop (finish reason), metadata (usage,
 * billed); an exception ends the stream as an error.
 */
import { newId } from '../common/chunks';
import { ChatChunkStream } from '../common/chunk-stream';
import { errorFromBody } from '../common/errors';
import { type JsonObject, isRecord, num, obj, parseJson, str } from '../common/json';
import type { SseEvent, StreamStep } from '../types';
import { finishReasonFromConverse, reasoningText, usageFromConverse } from './converse-response';

export class ConverseToOpenAIStream extends ChatChunkStream {
  constructor(model: string, includeUsage: boolean) {
    super(model, includeUsage, newId('chatcmpl-'));
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return this.nothing();
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
        return this.nothing();
      case 'error':
        return { out: [], usage: this.usage, error: errorFromBody(500, data) };
      default:
        // contentBlockStop and events this relay has no use for.
        return this.nothing();
    }
  }

  private blockStart(index: number, toolUse: JsonObject): StreamStep {
    if (!str(toolUse.name)) return this.nothing();
    const toolIndex = this.newToolCall(index);
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
    return this.nothing();
  }
}
