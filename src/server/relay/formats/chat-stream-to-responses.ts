/**
 * OpenAI chat chunks -> the Responses API event stream, wrapped around a provider's chat
 * stream converter so `/v1/responses` callers can use any chat channel (as
 * ClaudeStreamFromOpenAI does for `/v1/messages`):
 *
 *   response.created, response.in_progress
 *   per output item: response.output_item.added, then
 *     message:       content_part.added, output_text.delta…, output_text.done, content_part.done
 *     reasoning:     reasoning_summary_part.added, reasoning_summary_text.delta…, …text.done, …part.done
 *     function_call: function_call_arguments.delta…, function_call_arguments.done
 *   response.output_item.done
 *   response.completed (or response.incomplete) with the whole response and its usage
 *
 * Every event carries `type` and a `sequence_number` counting from 0. The whole response is
 * kept in `final` for the store once the stream ended.
 */
import { ChatStreamWrapper } from './chat-stream-wrapper';
import { sseJson } from '../providers/common/chunks';
import { type JsonObject, arr, isRecord, num, obj, parseJson, str } from '../providers/common/json';
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../providers/types';
import { functionCallItem, incompleteReason, messageItem, outputTextPart, reasoningItem, responseObject, type ResponseMeta } from './chat-response-to-responses';
import { responsesId } from './responses-items';

interface OpenText {
  index: number;
  id: string;
  text: string;
}

interface OpenCall {
  index: number;
  id: string;
  callId: string;
  name: string;
  args: string;
}

export class ResponsesStreamFromChat extends ChatStreamWrapper {
  private seq = 0;
  private started = false;
  /** The output items in output_index order, each replaced by its final form when done. */
  private readonly output: JsonObject[] = [];
  private message: OpenText | undefined;
  private reasoning: OpenText | undefined;
  /** Tool calls by their chat `index`, open until the answer ends (chat may interleave them). */
  private readonly calls = new Map<number, OpenCall>();
  private finishReason: unknown;
  /** The whole response, once `finish` ran. */
  final: JsonObject | undefined;

  constructor(
    inner: StreamConverter,
    private readonly meta: ResponseMeta,
  ) {
    super(inner);
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const step = this.inner.finish(fallbackUsage);
    const out: SseEvent[] = [];
    for (const chunk of step.out) out.push(...this.convert(chunk));
    out.push(...this.ensureStarted(), ...this.closeAll());
    const incomplete = incompleteReason(this.finishReason);
    this.final = responseObject(this.meta, incomplete ? 'incomplete' : 'completed', this.output, step.usage, incomplete);
    out.push(this.event(incomplete ? 'response.incomplete' : 'response.completed', { response: this.final }));
    return { ...step, out };
  }

  private event(type: string, body: JsonObject): SseEvent {
    return sseJson({ type, sequence_number: this.seq++, ...body }, type);
  }

  protected convert(chunkEvent: SseEvent): SseEvent[] {
    const chunk = parseJson(chunkEvent.data);
    if (!isRecord(chunk)) return [];
    const out = this.ensureStarted();
    // A response has one answer: only the first choice is carried over.
    const choice = obj(arr(chunk.choices).find((c) => num(obj(c).index) === 0));
    const delta = obj(choice.delta);
    const reasoning = str(delta.reasoning_content) || str(delta.reasoning);
    if (reasoning) out.push(...this.reasoningDelta(reasoning));
    const text = str(delta.content);
    if (text) out.push(...this.textDelta(text));
    for (const raw of arr(delta.tool_calls)) out.push(...this.toolDelta(obj(raw)));
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      out.push(...this.closeAll());
    }
    return out;
  }

  private ensureStarted(): SseEvent[] {
    if (this.started) return [];
    this.started = true;
    const response = responseObject(this.meta, 'in_progress', [], undefined);
    return [this.event('response.created', { response }), this.event('response.in_progress', { response })];
  }

  private added(item: JsonObject): SseEvent {
    const index = this.output.length;
    this.output.push(item);
    return this.event('response.output_item.added', { output_index: index, item });
  }

  private reasoningDelta(delta: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (!this.reasoning) {
      out.push(...this.closeText());
      const id = responsesId('rs');
      const index = this.output.length;
      this.reasoning = { index, id, text: '' };
      out.push(this.added(reasoningItem(id, '')));
      out.push(this.event('response.reasoning_summary_part.added', { item_id: id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } }));
    }
    const r = this.reasoning;
    r.text += delta;
    out.push(this.event('response.reasoning_summary_text.delta', { item_id: r.id, output_index: r.index, summary_index: 0, delta }));
    return out;
  }

  private textDelta(delta: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (!this.message) {
      out.push(...this.closeReasoning());
      const id = responsesId('msg');
      const index = this.output.length;
      this.message = { index, id, text: '' };
      out.push(this.added(messageItem(id, '', 'in_progress')));
      out.push(this.event('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: outputTextPart('') }));
    }
    const m = this.message;
    m.text += delta;
    out.push(this.event('response.output_text.delta', { item_id: m.id, output_index: m.index, content_index: 0, delta, logprobs: [] }));
    return out;
  }

  private toolDelta(call: JsonObject): SseEvent[] {
    const key = num(call.index);
    const fn = obj(call.function);
    const out: SseEvent[] = [];
    let open = this.calls.get(key);
    if (!open) {
      out.push(...this.closeText());
      const id = responsesId('fc');
      open = { index: this.output.length, id, callId: str(call.id) || responsesId('call'), name: str(fn.name) ?? '', args: '' };
      this.calls.set(key, open);
      out.push(this.added(functionCallItem(id, open.callId, open.name, '', 'in_progress')));
    } else if (!open.name && str(fn.name)) open.name = str(fn.name)!;
    const partial = str(fn.arguments);
    if (partial) {
      open.args += partial;
      out.push(this.event('response.function_call_arguments.delta', { item_id: open.id, output_index: open.index, delta: partial }));
    }
    return out;
  }

  private closeReasoning(): SseEvent[] {
    const r = this.reasoning;
    if (!r) return [];
    this.reasoning = undefined;
    const part = { type: 'summary_text', text: r.text };
    const item = reasoningItem(r.id, r.text);
    this.output[r.index] = item;
    return [
      this.event('response.reasoning_summary_text.done', { item_id: r.id, output_index: r.index, summary_index: 0, text: r.text }),
      this.event('response.reasoning_summary_part.done', { item_id: r.id, output_index: r.index, summary_index: 0, part }),
      this.event('response.output_item.done', { output_index: r.index, item }),
    ];
  }

  private closeText(): SseEvent[] {
    const out = this.closeReasoning();
    const m = this.message;
    if (!m) return out;
    this.message = undefined;
    const item = messageItem(m.id, m.text, 'completed');
    this.output[m.index] = item;
    out.push(
      this.event('response.output_text.done', { item_id: m.id, output_index: m.index, content_index: 0, text: m.text, logprobs: [] }),
      this.event('response.content_part.done', { item_id: m.id, output_index: m.index, content_index: 0, part: outputTextPart(m.text) }),
      this.event('response.output_item.done', { output_index: m.index, item }),
    );
    return out;
  }

  private closeAll(): SseEvent[] {
    const out = this.closeText();
    for (const call of this.calls.values()) {
      const args = call.args || '{}';
      const item = functionCallItem(call.id, call.callId, call.name, args, 'completed');
      this.output[call.index] = item;
      out.push(
        this.event('response.function_call_arguments.done', { item_id: call.id, output_index: call.index, name: call.name, arguments: args }),
        this.event('response.output_item.done', { output_index: call.index, item }),
      );
    }
    this.calls.clear();
    return out;
  }
}
