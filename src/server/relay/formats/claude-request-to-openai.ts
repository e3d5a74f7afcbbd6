/**
 * Claude Messages request -> OpenAI chat request (docs/relay.md#claude), for `/v1/messages` callers
 * served by OpenAI-shaped channels (and Gemini's, through its chat conversion). Claude-only
 * things with no chat meaning are dropped without error: `cache_control` marks, the client's
 * earlier thinking / redacted_thinking blocks (their signatures only Claude can check), server
 * tools and their result blocks.
 */
import { type JsonObject, arr, compact, isRecord, obj, optionalNum, str } from '../providers/common/json';
import { chatStreamFields } from './chat-stream-request';
import { contentText } from '../providers/common/openai-text';
import { effortForBudget, takesReasoningEffort } from '../providers/common/reasoning';

type Part = JsonObject;

export interface ClaudeToChatOptions {
  /** The model the channel will be asked for (after mapping): whether it takes reasoning_effort. */
  upstreamModel?: string;
}

function mediaUrl(source: JsonObject): string | undefined {
  if (source.type === 'base64') return `data:${str(source.media_type) ?? 'application/octet-stream'};base64,${str(source.data) ?? ''}`;
  if (source.type === 'url') return str(source.url);
  return undefined;
}

/** One Claude block -> an OpenAI content part (text, image, PDF), or undefined when it has none. */
function contentPart(block: JsonObject): Part | undefined {
  switch (block.type) {
    case 'text':
      return str(block.text) ? { type: 'text', text: block.text } : undefined;
    case 'image': {
      const url = mediaUrl(obj(block.source));
      return url ? { type: 'image_url', image_url: { url } } : undefined;
    }
    case 'document': {
      const source = obj(block.source);
      // A plain-text document is just text; a base64 one (PDF) is OpenAI's file part.
      if (source.type === 'text') return str(source.data) ? { type: 'text', text: source.data } : undefined;
      const url = mediaUrl(source);
      return url?.startsWith('data:') ? { type: 'file', file: { filename: str(block.title) ?? 'document.pdf', file_data: url } } : undefined;
    }
    case 'search_result': {
      const text = contentText(block.content);
      return text ? { type: 'text', text: str(block.title) ? `${block.title as string}\n${text}` : text } : undefined;
    }
    default:
      return undefined;
  }
}

function contentParts(blocks: unknown[]): Part[] {
  const parts: Part[] = [];
  for (const raw of blocks) {
    const part = contentPart(obj(raw));
    if (part) parts.push(part);
  }
  return parts;
}

/** All-text content becomes a plain string (what most OpenAI-shaped upstreams expect). */
function simplify(parts: Part[]): string | Part[] {
  return parts.every((p) => p.type === 'text') ? parts.map((p) => p.text as string).join('\n') : parts;
}

/**
 * A tool_result -> a `tool` message with its text. OpenAI's tool messages carry text only, so
 * the result's images go to the user message that follows; a failed tool (`is_error`) is said
 * in the text, chat having no flag for it.
 */
function toolMessage(block: JsonObject, media: Part[]): JsonObject {
  const content = block.content;
  let text = contentText(content);
  if (Array.isArray(content)) for (const part of contentParts(content)) if (part.type !== 'text') media.push(part);
  if (block.is_error === true) text = text ? `Error: ${text}` : 'Error';
  return { role: 'tool', tool_call_id: str(block.tool_use_id) ?? '', content: text };
}

function convertMessage(message: JsonObject): JsonObject[] {
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  if (typeof message.content === 'string') return [{ role, content: message.content }];
  const blocks = arr(message.content).map(obj);
  if (role === 'assistant') {
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b) => str(b.text) ?? '')
      .join('');
    const toolCalls = blocks
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ id: str(b.id) ?? '', type: 'function', function: { name: str(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) } }));
    return [compact({ role, content: text || (toolCalls.length > 0 ? null : ''), tool_calls: toolCalls.length > 0 ? toolCalls : undefined })];
  }
  // Tool results become `tool` messages, which OpenAI wants right after the assistant's calls.
  const media: Part[] = [];
  const out: JsonObject[] = blocks.filter((b) => b.type === 'tool_result').map((b) => toolMessage(b, media));
  const parts = [...media, ...contentParts(blocks)];
  if (parts.length > 0) out.push({ role: 'user', content: simplify(parts) });
  return out;
}

function convertTools(tools: unknown): JsonObject[] | undefined {
  // Claude's server tools (web search, bash ...) have a `type` and no schema: they cannot be forwarded.
  const list = arr(tools)
    .map(obj)
    .filter((t) => isRecord(t.input_schema))
    .map((t) => ({ type: 'function', function: compact({ name: str(t.name) ?? '', description: str(t.description), parameters: t.input_schema }) }));
  return list.length > 0 ? list : undefined;
}

function convertToolChoice(choice: JsonObject): unknown {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: str(choice.name) ?? '' } };
    default:
      return undefined;
  }
}

/** Claude's effort levels (`output_config.effort`) on OpenAI's scale, which ends at high. */
const CLAUDE_EFFORTS: Record<string, string> = { low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

/**
 * Claude's reasoning controls -> `reasoning_effort`, for models that take one (the others
 * refuse the field, so it is left out for them): an explicit `output_config.effort` first,
 * else extended thinking by its budget, adaptive thinking as medium.
 */
function reasoningEffort(body: JsonObject, upstreamModel: string | undefined): string | undefined {
  if (!upstreamModel || !takesReasoningEffort(upstreamModel)) return undefined;
  const effort = str(obj(body.output_config).effort);
  if (effort && Object.hasOwn(CLAUDE_EFFORTS, effort)) return CLAUDE_EFFORTS[effort];
  const thinking = obj(body.thinking);
  if (thinking.type === 'enabled' && typeof thinking.budget_tokens === 'number') return effortForBudget(thinking.budget_tokens);
  return thinking.type === 'adaptive' ? 'medium' : undefined;
}

/**
 * A `role: "system"` message inside the conversation (Anthropic's beta) -> a chat system
 * message where it stands; one marked `clear_at: "next_user_message"` is no longer shown once
 * a later user message exists, as Anthropic does. Its tool additions and removals have no
 * chat meaning.
 */
function systemMessage(message: JsonObject, userFollows: boolean): JsonObject[] {
  if (message.clear_at === 'next_user_message' && userFollows) return [];
  const text = contentText(message.content);
  return text ? [{ role: 'system', content: text }] : [];
}

export function openaiRequestFromClaude(body: JsonObject, options: ClaudeToChatOptions = {}): JsonObject {
  const messages: JsonObject[] = [];
  // Ours: a block-list system prompt keeps its texts (the reference joined the block types).
  const system = contentText(body.system);
  if (system) messages.push({ role: 'system', content: system });
  const list = arr(body.messages).map(obj);
  const lastUser = list.map((m) => m.role).lastIndexOf('user');
  list.forEach((message, i) => messages.push(...(message.role === 'system' ? systemMessage(message, i < lastUser) : convertMessage(message))));
  const tools = convertTools(body.tools);
  const choice = obj(body.tool_choice);
  const stop = arr(body.stop_sequences).filter((s) => typeof s === 'string');
  return compact({
    model: body.model,
    messages,
    max_tokens: optionalNum(body.max_tokens),
    temperature: optionalNum(body.temperature),
    top_p: optionalNum(body.top_p),
    top_k: optionalNum(body.top_k),
    stop: stop.length > 0 ? stop : undefined,
    ...chatStreamFields(body.stream === true),
    reasoning_effort: reasoningEffort(body, options.upstreamModel),
    tools,
    tool_choice: tools ? convertToolChoice(choice) : undefined,
    parallel_tool_calls: tools && choice.disable_parallel_tool_use === true ? false : undefined,
    user: str(obj(body.metadata).user_id),
  });
}
