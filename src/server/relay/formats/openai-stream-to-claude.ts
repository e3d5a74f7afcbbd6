/**
 * OpenAI chat chunks -> Claude's event stream (docs/relay.md#claude), wrapped around a provider's
 * chat stream converter so `/v1/messages` callers can use any chat channel: message_start on
 * the first chunk, one content block per text / thinking / tool call, and message_delta (stop
 * reason + usage) and message_stop when the upstream stream ends.
 */
import { ChatStreamWrapper } from './chat-stream-wrapper';
import { sseJson } from '../providers/common/chunks';
import { type JsonObject, arr, isRecord, num, obj, parseJson, str } from '../providers/common/json';
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../providers/types';
import { claudeStopReason } from './claude-stop-reason';
import { claudeUsageBody } from './openai-response-to-claude';

type OpenBlock = { kind: 'text' | 'thinking' } | { kind: 'tool'; toolIndex: number };

export interface ClaudeStreamArgs {
  /** The model name the client asked for. */
  model: string;
  /** The local prompt count, reported in message_start before upstream usage is known. */
  promptTokens: number;
}

function event(type: string, body: JsonObject): SseEvent {
  return sseJson({ type, ...body }, type);
}

export class ClaudeStreamFromOpenAI extends ChatStreamWrapper {
  private started = false;
  private open: OpenBlock | undefined;
  private index = -1;
  private stopReason: string | undefined;
  /** A tool call was passed on: the turn ends in tool use whatever finish reason came (as answers do). */
  private sawTool = false;

  constructor(
    inner: StreamConverter,
    private readonly args: ClaudeStreamArgs,
  ) {
    super(inner);
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const step = this.inner.finish(fallbackUsage);
    const out: SseEvent[] = [...this.ensureStarted(''), ...this.closeBlock()];
    const stopReason = this.sawTool ? 'tool_use' : (this.stopReason ?? 'end_turn');
    out.push(event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: claudeUsageBody(step.usage) }));
    out.push(event('message_stop', {}));
    return { ...step, out };
  }

  protected convert(chunkEvent: SseEvent): SseEvent[] {
    const chunk = parseJson(chunkEvent.data);
    if (!isRecord(chunk)) return [];
    const out = this.ensureStarted(str(chunk.id) ?? '');
    // Claude has one message: only the first choice is carried over.
    const choice = obj(arr(chunk.choices).find((c) => num(obj(c).index) === 0));
    const delta = obj(choice.delta);
    const reasoning = str(delta.reasoning_content) || str(delta.reasoning);
    if (reasoning) out.push(...this.ensureBlock({ kind: 'thinking' }), this.delta({ type: 'thinking_delta', thinking: reasoning }));
    const text = str(delta.content);
    if (text) out.push(...this.ensureBlock({ kind: 'text' }), this.delta({ type: 'text_delta', text }));
    for (const raw of arr(delta.tool_calls)) out.push(...this.toolDelta(obj(raw)));
    if (choice.finish_reason) {
      this.stopReason = claudeStopReason(choice.finish_reason);
      out.push(...this.closeBlock());
    }
    return out;
  }

  private toolDelta(call: JsonObject): SseEvent[] {
    const toolIndex = num(call.index);
    const fn = obj(call.function);
    const out: SseEvent[] = [];
    const sameCall = this.open?.kind === 'tool' && this.open.toolIndex === toolIndex;
    if (!sameCall) {
      this.sawTool = true;
      out.push(...this.closeBlock());
      this.index += 1;
      this.open = { kind: 'tool', toolIndex };
      out.push(event('content_block_start', { index: this.index, content_block: { type: 'tool_use', id: str(call.id) ?? '', name: str(fn.name) ?? '', input: {} } }));
    }
    const partial = str(fn.arguments);
    if (partial) out.push(this.delta({ type: 'input_json_delta', partial_json: partial }));
    return out;
  }

  private ensureStarted(id: string): SseEvent[] {
    if (this.started) return [];
    this.started = true;
    const message = {
      id: id || 'msg_relay',
      type: 'message',
      role: 'assistant',
      model: this.args.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: this.args.promptTokens, output_tokens: 0 },
    };
    return [event('message_start', { message })];
  }

  private ensureBlock(block: { kind: 'text' | 'thinking' }): SseEvent[] {
    if (this.open?.kind === block.kind) return [];
    const out = this.closeBlock();
    this.index += 1;
    this.open = block;
    const contentBlock = block.kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
    out.push(event('content_block_start', { index: this.index, content_block: contentBlock }));
    return out;
  }

  private closeBlock(): SseEvent[] {
    if (!this.open) return [];
    this.open = undefined;
    return [event('content_block_stop', { index: this.index })];
  }

  private delta(delta: JsonObject): SseEvent {
    return event('content_block_delta', { index: this.index, delta });
  }
}
