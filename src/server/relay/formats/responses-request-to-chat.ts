/**
 * Responses API request -> OpenAI chat request, for `/v1/responses` callers served by channels
 * that speak no Responses API (Claude, Gemini, the chat families): `instructions` becomes the
 * system message, input items become messages (function calls the assistant's `tool_calls`,
 * their outputs `tool` messages), function tools chat tools, `reasoning.effort`
 * `reasoning_effort`, `max_output_tokens` `max_tokens`.
 *
 * What has no chat equivalent is dropped rather than refused, since agents send it on every
 * call: hosted tools (web search, file search, namespaces), freeform tools, reasoning items
 * (their encrypted content is another provider's), `include`, `store`, `prompt_cache_key`,
 * `text.verbosity`, metadata.
 */
import { type JsonObject, arr, compact, isRecord, obj, optionalNum, str } from '../providers/common/json';
import { chatStreamFields } from './chat-stream-request';
import { contentText, inputItems } from './responses-items';

type Part = JsonObject;

/** One input content part -> a chat part (text, image, file); undefined when it has none. */
function chatPart(raw: unknown): Part | undefined {
  const part = obj(raw);
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return typeof part.text === 'string' ? { type: 'text', text: part.text } : undefined;
    case 'refusal':
      return typeof part.refusal === 'string' ? { type: 'text', text: part.refusal } : undefined;
    case 'input_image': {
      const url = str(part.image_url) ?? str(obj(part.image_url).url);
      if (!url) return undefined;
      const detail = str(part.detail);
      return { type: 'image_url', image_url: detail && detail !== 'auto' ? { url, detail } : { url } };
    }
    case 'input_file': {
      const data = str(part.file_data);
      if (!data) return undefined;
      return { type: 'file', file: { filename: str(part.filename) ?? 'file', file_data: data } };
    }
    default:
      return undefined;
  }
}

/** Message content: text stays a string; all-text parts are joined (what most chat upstreams expect). */
function chatContent(content: unknown): string | Part[] {
  if (typeof content === 'string') return content;
  const parts = arr(content)
    .map(chatPart)
    .filter((p): p is Part => p !== undefined);
  return parts.every((p) => p.type === 'text') ? parts.map((p) => p.text as string).join('\n') : parts;
}

function chatRole(role: unknown): string {
  if (role === 'assistant') return 'assistant';
  if (role === 'system' || role === 'developer') return 'system';
  return 'user';
}

/** A tool result: text, or the texts of a list of output parts. */
function toolOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return contentText(output);
  return output === undefined || output === null ? '' : JSON.stringify(output);
}

/** Input items -> chat messages; consecutive calls join one assistant message, as chat wants them. */
export function chatMessagesFromItems(items: readonly JsonObject[]): JsonObject[] {
  const messages: JsonObject[] = [];
  const addCall = (call: JsonObject) => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') {
      last.tool_calls = [...arr(last.tool_calls), call];
      if (last.content === '') last.content = null;
    } else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
  };
  for (const item of items) {
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
    switch (type) {
      case 'message': {
        const role = chatRole(item.role);
        messages.push({ role, content: chatContent(item.content) });
        break;
      }
      case 'function_call':
        addCall({ id: str(item.call_id) ?? str(item.id) ?? '', type: 'function', function: { name: str(item.name) ?? '', arguments: str(item.arguments) ?? '{}' } });
        break;
      // A freeform tool's call and output keep the conversation whole even though the tool
      // itself cannot be offered to a chat model (its input travels as `{"input": …}`).
      case 'custom_tool_call':
        addCall({ id: str(item.call_id) ?? str(item.id) ?? '', type: 'function', function: { name: str(item.name) ?? '', arguments: JSON.stringify({ input: str(item.input) ?? '' }) } });
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        messages.push({ role: 'tool', tool_call_id: str(item.call_id) ?? '', content: toolOutput(item.output) });
        break;
      default:
        // reasoning, item_reference, hosted tool calls: nothing a chat model can read.
        break;
    }
  }
  return messages;
}

/** Function tools only; hosted, namespace and freeform tools have no chat form. */
function chatTools(tools: unknown): JsonObject[] | undefined {
  const list = arr(tools)
    .map(obj)
    .filter((t) => t.type === 'function' && typeof t.name === 'string' && t.name !== '')
    .map((t) => ({
      type: 'function',
      function: compact({
        name: t.name,
        description: str(t.description),
        parameters: isRecord(t.parameters) ? t.parameters : { type: 'object', properties: {} },
        strict: typeof t.strict === 'boolean' ? t.strict : undefined,
      }),
    }));
  return list.length > 0 ? list : undefined;
}

function chatToolChoice(choice: unknown, tools: JsonObject[]): unknown {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  const c = obj(choice);
  if (c.type === 'function' && typeof c.name === 'string' && tools.some((t) => obj(t.function).name === c.name)) return { type: 'function', function: { name: c.name } };
  return undefined;
}

const EFFORTS = new Set(['minimal', 'low', 'medium', 'high']);

/** `text.format` -> `response_format` (JSON mode and JSON schemas). */
function responseFormat(text: unknown): JsonObject | undefined {
  const format = obj(obj(text).format);
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema' && isRecord(format.schema)) {
    return {
      type: 'json_schema',
      json_schema: compact({
        name: str(format.name) ?? 'response',
        description: str(format.description),
        schema: format.schema,
        strict: typeof format.strict === 'boolean' ? format.strict : undefined,
      }),
    };
  }
  return undefined;
}

/**
 * `history`: the items of the stored conversation `previous_response_id` names (its input and
 * output), put before this request's input.
 */
export function chatRequestFromResponses(body: JsonObject, history: readonly JsonObject[] = []): JsonObject {
  const messages: JsonObject[] = [];
  const instructions = str(body.instructions);
  if (instructions) messages.push({ role: 'system', content: instructions });
  messages.push(...chatMessagesFromItems([...history, ...inputItems(body.input)]));
  const tools = chatTools(body.tools);
  const effort = str(obj(body.reasoning).effort);
  return compact({
    model: body.model,
    messages,
    max_tokens: optionalNum(body.max_output_tokens),
    temperature: optionalNum(body.temperature),
    top_p: optionalNum(body.top_p),
    ...chatStreamFields(body.stream === true),
    tools,
    tool_choice: tools ? chatToolChoice(body.tool_choice, tools) : undefined,
    parallel_tool_calls: tools && typeof body.parallel_tool_calls === 'boolean' ? body.parallel_tool_calls : undefined,
    reasoning_effort: effort && EFFORTS.has(effort) ? effort : undefined,
    response_format: responseFormat(body.text),
    user: str(body.user) ?? str(body.safety_identifier),
  });
}
