/**
 * Claude Messages request -> OpenAI chat request (reference §4.5), for `/v1/messages` callers
 * served by OpenAI-shaped channels. Unknown Claude fields have no OpenAI meaning and are dropped.
 */
import { type JsonObject, arr, compact, isRecord, obj, str } from '../providers/common/json';

type Part = JsonObject;

function mediaUrl(source: JsonObject): string | undefined {
  if (source.type === 'base64') return `data:${str(source.media_type) ?? 'application/octet-stream'};base64,${str(source.data) ?? ''}`;
  if (source.type === 'url') return str(source.url);
  return undefined;
}

/** Claude user/assistant content blocks -> OpenAI content parts (text, images, PDFs). */
function contentParts(blocks: unknown[]): Part[] {
  const parts: Part[] = [];
  for (const raw of blocks) {
    const block = obj(raw);
    if (block.type === 'text' && str(block.text)) parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') {
      const url = mediaUrl(obj(block.source));
      if (url) parts.push({ type: 'image_url', image_url: { url } });
    } else if (block.type === 'document') {
      const url = mediaUrl(obj(block.source));
      if (url?.startsWith('data:')) parts.push({ type: 'file', file: { filename: str(block.title) ?? 'document.pdf', file_data: url } });
    }
  }
  return parts;
}

/** All-text content becomes a plain string (what most OpenAI-shaped upstreams expect). */
function simplify(parts: Part[]): string | Part[] {
  return parts.every((p) => p.type === 'text') ? parts.map((p) => p.text as string).join('\n') : parts;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((b) => str(obj(b).text) ?? '')
    .filter(Boolean)
    .join('\n');
}

function convertMessage(message: JsonObject): JsonObject[] {
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  if (typeof message.content === 'string') return [{ role, content: message.content }];
  const blocks = arr(message.content);
  if (role === 'assistant') {
    const text = blocks.filter((b) => obj(b).type === 'text').map((b) => str(obj(b).text) ?? '').join('');
    const toolCalls = blocks
      .map(obj)
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ id: str(b.id) ?? '', type: 'function', function: { name: str(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) } }));
    // Thinking blocks are Claude's own and have no OpenAI equivalent.
    return [compact({ role, content: text || (toolCalls.length > 0 ? null : ''), tool_calls: toolCalls.length > 0 ? toolCalls : undefined })];
  }
  // Tool results become `tool` messages, which OpenAI wants right after the assistant's calls.
  const out: JsonObject[] = blocks
    .map(obj)
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ role: 'tool', tool_call_id: str(b.tool_use_id) ?? '', content: blockText(b.content) }));
  const parts = contentParts(blocks);
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

export function openaiRequestFromClaude(body: JsonObject): JsonObject {
  const messages: JsonObject[] = [];
  // Ours: a block-list system prompt keeps its texts (the reference joined the block types).
  const system = blockText(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const message of arr(body.messages)) messages.push(...convertMessage(obj(message)));
  const tools = convertTools(body.tools);
  const choice = obj(body.tool_choice);
  const stop = arr(body.stop_sequences).filter((s) => typeof s === 'string');
  return compact({
    model: body.model,
    messages,
    max_tokens: typeof body.max_tokens === 'number' ? body.max_tokens : undefined,
    temperature: typeof body.temperature === 'number' ? body.temperature : undefined,
    top_p: typeof body.top_p === 'number' ? body.top_p : undefined,
    top_k: typeof body.top_k === 'number' ? body.top_k : undefined,
    stop: stop.length > 0 ? stop : undefined,
    stream: body.stream === true ? true : undefined,
    // The usage chunk gives the Claude-format reply its real output count.
    stream_options: body.stream === true ? { include_usage: true } : undefined,
    tools,
    tool_choice: tools ? convertToolChoice(choice) : undefined,
    parallel_tool_calls: tools && choice.disable_parallel_tool_use === true ? false : undefined,
    user: str(obj(body.metadata).user_id),
  });
}
