/**
 * OpenAI chat request -> Claude Messages request (docs/relay.md#claude). Pure conversion: options
 * (default max_tokens, thinking) are applied by the caller.
 */
import { parseDataUrl } from '../common/data-url';
import { type JsonObject, arr, compact, isRecord, obj, parseJson, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

type Block = JsonObject;
interface ClaudeMessage {
  role: 'user' | 'assistant';
  content: string | Block[];
}

/** Claude refuses empty text; the reference's placeholder for "nothing here". */
const PLACEHOLDER = '...';

function imageBlock(url: string): Block {
  const inline = parseDataUrl(url);
  if (inline) return { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  // Providers do no I/O: a remote image is passed by URL, which Claude fetches itself.
  return { type: 'image', source: { type: 'url', url } };
}

function fileBlock(part: JsonObject): Block {
  const file = obj(part.file);
  const inline = parseDataUrl(str(file.file_data) ?? '');
  if (!inline) throw new ProviderRequestError('only base64 files are supported by Claude', 'invalid_request');
  return { type: 'document', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
}

/**
 * A part's `cache_control` (clients that know Claude put Anthropic's prompt-caching mark on
 * chat parts) stays on its block: Claude upstreams honour it.
 */
function withCacheControl(block: Block, part: JsonObject): Block {
  return isRecord(part.cache_control) ? { ...block, cache_control: part.cache_control } : block;
}

/** OpenAI content parts -> Claude blocks (text, image, document). */
export function claudeBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const blocks: Block[] = [];
  for (const raw of arr(content)) {
    const part = obj(raw);
    switch (part.type) {
      case 'text':
        if (str(part.text)) blocks.push(withCacheControl({ type: 'text', text: part.text }, part));
        break;
      case 'image_url': {
        const url = typeof part.image_url === 'string' ? part.image_url : str(obj(part.image_url).url);
        if (url) blocks.push(withCacheControl(imageBlock(url), part));
        break;
      }
      case 'file':
        blocks.push(withCacheControl(fileBlock(part), part));
        break;
      default:
        throw new ProviderRequestError(`content type ${String(part.type)} is not supported by Claude`, 'invalid_request');
    }
  }
  return blocks;
}

/** Assistant tool calls -> tool_use blocks; calls whose arguments are not a JSON object are dropped (reference). */
function toolUseBlocks(toolCalls: unknown): Block[] {
  const blocks: Block[] = [];
  for (const raw of arr(toolCalls)) {
    const call = obj(raw);
    const fn = obj(call.function);
    const args = str(fn.arguments)?.trim() ? parseJson(str(fn.arguments)!) : {};
    if (!isRecord(args)) continue;
    blocks.push({ type: 'tool_use', id: str(call.id) ?? '', name: str(fn.name) ?? '', input: args });
  }
  return blocks;
}

function toolResultContent(content: unknown): string | Block[] {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return claudeBlocks(content);
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/**
 * The reference's pre-pass: missing role -> user; consecutive same-role messages with plain
 * string contents (and no tool calls) merged with a space.
 */
function normalise(messages: unknown[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const raw of messages) {
    const message = { ...obj(raw) };
    if (!str(message.role)) message.role = 'user';
    const previous = out[out.length - 1];
    const mergeable = (m: JsonObject) => typeof m.content === 'string' && !m.tool_calls && m.role !== 'tool' && m.role !== 'system' && m.role !== 'developer';
    if (previous && previous.role === message.role && mergeable(previous) && mergeable(message)) {
      previous.content = `${previous.content as string} ${message.content as string}`;
      continue;
    }
    out.push(message);
  }
  return out;
}

function convertMessages(messages: JsonObject[]): { system?: string; messages: ClaudeMessage[] } {
  const system: string[] = [];
  const out: ClaudeMessage[] = [];
  for (const message of messages) {
    const role = message.role;
    if (role === 'system' || role === 'developer') {
      const text = contentText(message.content);
      if (text) system.push(text);
      continue;
    }
    if (role === 'tool' || role === 'function') {
      const block: Block = { type: 'tool_result', tool_use_id: str(message.tool_call_id) ?? str(message.name) ?? '', content: toolResultContent(message.content) };
      const last = out[out.length - 1];
      if (last && last.role === 'user') {
        last.content = typeof last.content === 'string' ? [{ type: 'text', text: last.content }, block] : [...last.content, block];
      } else {
        out.push({ role: 'user', content: [block] });
      }
      continue;
    }
    const claudeRole = role === 'assistant' ? 'assistant' : 'user';
    const toolUses = claudeRole === 'assistant' ? toolUseBlocks(message.tool_calls) : [];
    if (typeof message.content === 'string' && toolUses.length === 0) {
      out.push({ role: claudeRole, content: message.content || PLACEHOLDER });
      continue;
    }
    const blocks = [...claudeBlocks(message.content), ...toolUses];
    out.push({ role: claudeRole, content: blocks.length > 0 ? blocks : PLACEHOLDER });
  }
  // Claude conversations start with the user.
  if (out.length === 0 || out[0].role !== 'user') out.unshift({ role: 'user', content: PLACEHOLDER });
  // Every system message is kept (the reference kept only the last one).
  return { system: system.length > 0 ? system.join('\n') : undefined, messages: out };
}

function convertTools(body: JsonObject): Block[] | undefined {
  const functions = [
    ...arr(body.tools)
      .filter((tool) => obj(tool).type === 'function' || obj(tool).function)
      .map((tool) => obj(obj(tool).function)),
    ...arr(body.functions).map(obj),
  ];
  if (functions.length === 0) return undefined;
  return functions.map((fn) => {
    const parameters = isRecord(fn.parameters) ? fn.parameters : {};
    return compact({ name: str(fn.name) ?? '', description: str(fn.description), input_schema: { type: 'object', properties: {}, ...parameters } });
  });
}

/** tool_choice and parallel_tool_calls -> Claude's tool_choice (the reference dropped them). */
function convertToolChoice(body: JsonObject): JsonObject | undefined {
  const choice = body.tool_choice;
  let out: JsonObject | undefined;
  if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') out = { type: 'none' };
  else if (isRecord(choice) && str(obj(choice.function).name)) out = { type: 'tool', name: obj(choice.function).name };
  if (body.parallel_tool_calls === false) out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}

function stopSequences(stop: unknown): string[] | undefined {
  if (typeof stop === 'string') return stop ? [stop] : undefined;
  const list = arr(stop).filter((s): s is string => typeof s === 'string' && s !== '');
  return list.length > 0 ? list : undefined;
}

/** Converts an OpenAI chat body to a Claude Messages body for `model`. */
export function claudeRequestFromOpenAI(body: JsonObject, args: { model: string; defaultMaxTokens: number }): JsonObject {
  const { system, messages } = convertMessages(normalise(arr(body.messages)));
  const tools = convertTools(body);
  const maxTokens =
    typeof body.max_tokens === 'number' && body.max_tokens > 0
      ? body.max_tokens
      : typeof body.max_completion_tokens === 'number' && body.max_completion_tokens > 0
        ? body.max_completion_tokens
        : args.defaultMaxTokens;
  return compact({
    model: args.model,
    system,
    messages,
    max_tokens: maxTokens,
    stop_sequences: stopSequences(body.stop),
    temperature: typeof body.temperature === 'number' ? body.temperature : undefined,
    top_p: typeof body.top_p === 'number' ? body.top_p : undefined,
    top_k: typeof body.top_k === 'number' ? body.top_k : undefined,
    stream: body.stream === true ? true : undefined,
    tools,
    tool_choice: tools ? convertToolChoice(body) : undefined,
    metadata: str(body.user) ? { user_id: body.user } : undefined,
  });
}
