/**
 * OpenAI chat completion -> a Responses API `response` object, for `/v1/responses` callers
 * served through chat: reasoning becomes a `reasoning` item with its summary text, the answer a
 * `message` item with one `output_text` part, each tool call a `function_call` item. The
 * object shape (`responseObject`) is shared with the stream converter's closing event.
 */
import { type JsonObject, arr, obj, str } from '../providers/common/json';
import { usageFromOpenAI } from '../providers/common/usage';
import type { Usage } from '../providers/types';
import { responsesId, responsesUsageBody } from './responses-items';

export interface ResponseMeta {
  /** `resp_…`, made by the relay. */
  id: string;
  /** Unix seconds. */
  createdAt: number;
  /** The model name the client asked for. */
  model: string;
  /** The client's request: the object echoes its settings, as OpenAI's does. */
  request: JsonObject;
}

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete';

/** Why a chat answer stopped early, in Responses words; undefined for a natural end. */
export function incompleteReason(finishReason: unknown): string | undefined {
  if (finishReason === 'length') return 'max_output_tokens';
  if (finishReason === 'content_filter') return 'content_filter';
  return undefined;
}

export function responseObject(meta: ResponseMeta, status: ResponseStatus, output: JsonObject[], usage: Usage | undefined, incomplete?: string): JsonObject {
  const r = meta.request;
  const reasoning = obj(r.reasoning);
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    instructions: r.instructions ?? null,
    max_output_tokens: r.max_output_tokens ?? null,
    model: meta.model,
    output,
    parallel_tool_calls: r.parallel_tool_calls ?? true,
    previous_response_id: r.previous_response_id ?? null,
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    store: r.store !== false,
    temperature: r.temperature ?? 1,
    text: r.text ?? { format: { type: 'text' } },
    tool_choice: r.tool_choice ?? 'auto',
    tools: r.tools ?? [],
    top_p: r.top_p ?? 1,
    truncation: 'disabled',
    usage: status === 'in_progress' ? null : responsesUsageBody(usage),
    user: r.user ?? null,
    metadata: r.metadata ?? {},
  };
}

export function messageItem(id: string, text: string, status: 'in_progress' | 'completed'): JsonObject {
  return { type: 'message', id, status, role: 'assistant', content: status === 'completed' ? [outputTextPart(text)] : [] };
}

export function outputTextPart(text: string): JsonObject {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

export function reasoningItem(id: string, text: string): JsonObject {
  return { type: 'reasoning', id, summary: text ? [{ type: 'summary_text', text }] : [] };
}

export function functionCallItem(id: string, callId: string, name: string, args: string, status: 'in_progress' | 'completed'): JsonObject {
  return { type: 'function_call', id, call_id: callId, name, arguments: args, status };
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => str(obj(part).text) ?? '')
    .join('');
}

export function responsesFromChat(chat: unknown, meta: ResponseMeta): { response: JsonObject; usage: Usage | undefined } {
  const answer = obj(chat);
  const choice = obj(arr(answer.choices)[0]);
  const message = obj(choice.message);
  const output: JsonObject[] = [];
  const reasoning = str(message.reasoning_content) || str(message.reasoning);
  if (reasoning) output.push(reasoningItem(responsesId('rs'), reasoning));
  const text = messageText(message.content) || str(message.refusal) || '';
  if (text) output.push(messageItem(responsesId('msg'), text, 'completed'));
  for (const raw of arr(message.tool_calls)) {
    const call = obj(raw);
    const fn = obj(call.function);
    output.push(functionCallItem(responsesId('fc'), str(call.id) || responsesId('call'), str(fn.name) ?? '', str(fn.arguments) || '{}', 'completed'));
  }
  const usage = usageFromOpenAI(answer.usage);
  const incomplete = incompleteReason(choice.finish_reason);
  return { response: responseObject(meta, incomplete ? 'incomplete' : 'completed', output, usage, incomplete), usage };
}
