/**
 * Cohere's v2 chat events -> OpenAI chat chunks: message-start (id), content-delta (text or
 * thinking), tool-call-start / tool-call-delta, message-end (finish reason and usage).
 */
import { ChatChunkStream } from '../common/chunk-stream';
import { errorFromBody } from '../common/errors';
import { type JsonObject, isRecord, num, obj, parseJson, str } from '../common/json';
import type { SseEvent, StreamStep } from '../types';
import { finishReasonFromCohere, usageFromCohere } from './usage';

export class CohereToOpenAIStream extends ChatChunkStream {
  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return this.nothing();
    const message = obj(obj(data.delta).message);
    switch (str(data.type) ?? event.event) {
      case 'message-start':
        if (str(data.id)) this.meta.id = data.id as string;
        return this.emit({ role: 'assistant', content: '' });
      case 'content-start':
      case 'content-delta':
        return this.content(obj(message.content));
      case 'tool-call-start':
      case 'tool-call-delta':
        return this.toolCall(num(data.index), obj(message.tool_calls));
      case 'message-end': {
        const delta = obj(data.delta);
        this.usage = usageFromCohere(delta.usage) ?? this.usage;
        const error = str(delta.error);
        if (error) return { out: [], usage: this.usage, error: errorFromBody(500, { message: error }) };
        return this.emit({}, finishReasonFromCohere(delta.finish_reason));
      }
      case 'error':
        return { out: [], usage: this.usage, error: errorFromBody(500, data) };
      default:
        // content-end, tool-plan-delta, tool-call-end, citation-*: nothing for OpenAI clients.
        return this.nothing();
    }
  }

  private content(content: JsonObject): StreamStep {
    const thinking = str(content.thinking);
    if (thinking) return this.emit({ reasoning_content: thinking }, null, thinking);
    const text = str(content.text);
    return text ? this.emit({ content: text }, null, text) : this.nothing();
  }

  private toolCall(index: number, call: JsonObject): StreamStep {
    const fn = obj(call.function);
    const args = str(fn.arguments) ?? '';
    let toolIndex = this.toolIndex.get(index);
    if (toolIndex === undefined) {
      toolIndex = this.newToolCall(index);
      const name = str(fn.name) ?? '';
      const start = { index: toolIndex, id: str(call.id) ?? '', type: 'function', function: { name, arguments: args } };
      return this.emit({ tool_calls: [start] }, null, name + args);
    }
    return args ? this.emit({ tool_calls: [{ index: toolIndex, function: { arguments: args } }] }, null, args) : this.nothing();
  }
}
