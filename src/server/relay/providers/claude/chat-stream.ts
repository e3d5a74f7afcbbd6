/** Claude's streamed events -> OpenAI chat chunks (docs/relay.md#claude; cache counts kept). */
import { ChatChunkStream } from '../common/chunk-stream';
import { errorFromBody } from '../common/errors';
import { type JsonObject, isRecord, num, obj, parseJson, str } from '../common/json';
import type { SseEvent, StreamStep } from '../types';
import { finishReasonFromClaude, mergeClaudeUsage } from './usage';

export class ClaudeToOpenAIStream extends ChatChunkStream {
  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return this.nothing();
    const type = str(data.type) ?? event.event;
    switch (type) {
      case 'message_start':
        return this.start(obj(data.message));
      case 'content_block_start':
        return this.blockStart(num(data.index), obj(data.content_block));
      case 'content_block_delta':
        return this.blockDelta(num(data.index), obj(data.delta));
      case 'message_delta':
        this.usage = mergeClaudeUsage(this.usage, data.usage);
        return this.emit({}, finishReasonFromClaude(obj(data.delta).stop_reason));
      case 'error':
        return { out: [], usage: this.usage, error: errorFromBody(500, data) };
      default:
        // ping, content_block_stop, message_stop: nothing for OpenAI clients.
        return this.nothing();
    }
  }

  private start(message: JsonObject): StreamStep {
    if (str(message.id)) this.meta.id = message.id as string;
    if (str(message.model)) this.meta.model = message.model as string;
    // message_start's output count is a placeholder; the real one comes with message_delta.
    this.usage = mergeClaudeUsage(this.usage, { ...obj(message.usage), output_tokens: 0 });
    return this.emit({ role: 'assistant', content: '' });
  }

  private blockStart(index: number, block: JsonObject): StreamStep {
    if (block.type === 'tool_use') {
      const toolIndex = this.newToolCall(index);
      const name = str(block.name) ?? '';
      const call = { index: toolIndex, id: str(block.id) ?? '', type: 'function', function: { name, arguments: '' } };
      return this.emit({ tool_calls: [call] }, null, name);
    }
    // Text and thinking blocks start empty; their deltas carry the text.
    const text = str(block.text);
    return text ? this.emit({ content: text }, null, text) : this.nothing();
  }

  private blockDelta(index: number, delta: JsonObject): StreamStep {
    switch (delta.type) {
      case 'text_delta':
        return this.emit({ content: str(delta.text) ?? '' }, null, str(delta.text));
      case 'thinking_delta':
        return this.emit({ reasoning_content: str(delta.thinking) ?? '' }, null, str(delta.thinking));
      case 'input_json_delta': {
        const partial = str(delta.partial_json) ?? '';
        return this.emit({ tool_calls: [{ index: this.toolIndex.get(index) ?? 0, function: { arguments: partial } }] }, null, partial);
      }
      default:
        // signature_delta authenticates thinking for Claude itself; OpenAI clients have no use for it.
        return this.nothing();
    }
  }
}
