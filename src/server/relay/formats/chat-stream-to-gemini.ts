/**
 * OpenAI chat chunks -> Gemini `streamGenerateContent` chunks, wrapped around a provider's chat
 * stream converter so Gemini-native callers can use any chat channel: text and thoughts go
 * out as they arrive, one chunk per upstream chunk. Tool calls arrive in pieces (the
 * arguments' JSON cut anywhere) while Gemini sends each functionCall whole, so they are
 * gathered and sent, with the finish reason and usageMetadata, in the last chunk.
 */
import { ChatStreamWrapper } from './chat-stream-wrapper';
import { sseJson } from '../providers/common/chunks';
import { type JsonObject, arr, compact, isRecord, num, obj, parseJson, str } from '../providers/common/json';
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../providers/types';
import { callArgs, geminiFinishReason, geminiUsageMetadata } from './chat-response-to-gemini';

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

export class GeminiStreamFromChat extends ChatStreamWrapper {
  private readonly calls = new Map<number, PendingCall>();
  private finishReason: string | undefined;
  private responseId: string | undefined;

  /** `model`: the name asked for. */
  constructor(
    inner: StreamConverter,
    private readonly model: string,
  ) {
    super(inner);
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const step = this.inner.finish(fallbackUsage);
    const parts: JsonObject[] = [...this.calls.values()].map((call) => ({ functionCall: compact({ id: call.id || undefined, name: call.name, args: callArgs(call.args) }) }));
    // Gemini's last chunk always has content; an empty text part stands for "nothing more".
    if (parts.length === 0) parts.push({ text: '' });
    const last = this.chunk(parts, this.finishReason ?? 'STOP', step.usage);
    return { ...step, out: [sseJson(last)] };
  }

  protected convert(event: SseEvent): SseEvent[] {
    const chunk = parseJson(event.data);
    if (!isRecord(chunk)) return [];
    this.responseId ??= str(chunk.id);
    // Gemini has one candidate here: only the first choice is carried over.
    const choice = obj(arr(chunk.choices).find((c) => num(obj(c).index) === 0));
    const delta = obj(choice.delta);
    const parts: JsonObject[] = [];
    const reasoning = str(delta.reasoning_content) || str(delta.reasoning);
    if (reasoning) parts.push({ text: reasoning, thought: true });
    const text = str(delta.content);
    if (text) parts.push({ text });
    for (const raw of arr(delta.tool_calls)) this.addCall(obj(raw));
    const finish = geminiFinishReason(choice.finish_reason);
    if (finish) this.finishReason = finish;
    return parts.length > 0 ? [sseJson(this.chunk(parts))] : [];
  }

  private addCall(call: JsonObject): void {
    const index = num(call.index);
    const fn = obj(call.function);
    const pending = this.calls.get(index) ?? { id: '', name: '', args: '' };
    pending.id ||= str(call.id) ?? '';
    pending.name ||= str(fn.name) ?? '';
    pending.args += str(fn.arguments) ?? '';
    this.calls.set(index, pending);
  }

  private chunk(parts: JsonObject[], finishReason?: string, usage?: Usage): JsonObject {
    return compact({
      candidates: [compact({ content: { role: 'model', parts }, finishReason, index: 0 })],
      usageMetadata: usage ? geminiUsageMetadata(usage) : undefined,
      modelVersion: this.model,
      responseId: this.responseId,
    });
  }
}
