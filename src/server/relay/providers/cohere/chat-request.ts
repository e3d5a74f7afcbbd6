/** OpenAI chat -> Cohere's v2 `/v2/chat` body (its messages are OpenAI-like; samplers are renamed). */
import { type JsonObject, arr, compact, isRecord, obj, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

/** User content: text as is; text and image parts in Cohere's part shapes (vision models). */
function userContent(content: unknown): unknown {
  if (typeof content === 'string') return content;
  return arr(content).flatMap((part): JsonObject[] => {
    const p = obj(part);
    if (p.type === 'text') return [{ type: 'text', text: str(p.text) ?? '' }];
    if (p.type === 'image_url') {
      const url = str(obj(p.image_url).url) ?? str(p.image_url);
      return url ? [{ type: 'image_url', image_url: { url } }] : [];
    }
    return [];
  });
}

function toolCalls(calls: unknown): JsonObject[] | undefined {
  const list = arr(calls).map((call) => {
    const fn = obj(obj(call).function);
    return { id: str(obj(call).id) ?? '', type: 'function', function: { name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '{}' } };
  });
  return list.length > 0 ? list : undefined;
}

function message(raw: unknown, index: number): JsonObject {
  const m = obj(raw);
  switch (m.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: contentText(m.content) };
    case 'user':
      return { role: 'user', content: userContent(m.content) };
    case 'assistant': {
      const text = contentText(m.content, '');
      return compact({ role: 'assistant', content: text || undefined, tool_calls: toolCalls(m.tool_calls) });
    }
    case 'tool':
      return { role: 'tool', tool_call_id: str(m.tool_call_id) ?? '', content: contentText(m.content) };
    default:
      throw new ProviderRequestError(`messages[${index}].role must be system, user, assistant or tool`, 'invalid_request');
  }
}

function tools(list: unknown): JsonObject[] | undefined {
  const out = arr(list)
    .map((tool) => obj(obj(tool).function))
    .filter((fn) => typeof fn.name === 'string')
    .map((fn) => compact({ type: 'function', function: compact({ name: fn.name, description: str(fn.description), parameters: isRecord(fn.parameters) ? fn.parameters : undefined }) }));
  return out.length > 0 ? out : undefined;
}

/** `response_format`: Cohere takes `json_object` with an optional schema. */
function responseFormat(format: unknown): JsonObject | undefined {
  const f = obj(format);
  if (f.type === 'json_object') return { type: 'json_object' };
  if (f.type === 'json_schema') return compact({ type: 'json_object', json_schema: obj(f.json_schema).schema });
  return undefined;
}

/** `safetyMode`: the operator's setting; NONE (or nothing) sends none, as the reference does. */
export function cohereChatRequest(body: JsonObject, model: string, stream: boolean, safetyMode?: string): JsonObject {
  const messages = arr(body.messages);
  if (messages.length === 0) throw new ProviderRequestError('messages must not be empty', 'invalid_request');
  const stop = typeof body.stop === 'string' ? [body.stop] : arr(body.stop).filter((s) => typeof s === 'string');
  return compact({
    model,
    messages: messages.map(message),
    stream,
    max_tokens: body.max_completion_tokens ?? body.max_tokens,
    temperature: body.temperature,
    p: body.top_p,
    k: body.top_k,
    seed: body.seed,
    frequency_penalty: body.frequency_penalty,
    presence_penalty: body.presence_penalty,
    stop_sequences: stop.length > 0 ? stop : undefined,
    tools: tools(body.tools),
    response_format: responseFormat(body.response_format),
    safety_mode: safetyMode && safetyMode !== 'NONE' ? safetyMode : undefined,
  });
}
