/**
 * OpenAI chat request -> Bedrock Converse request (every model family but Claude: Nova, Llama,
 * Mistral, …). Converse wants system texts apart, turns that alternate starting with the
 * user, tool results as user turns, and media as base64 bytes (blobs are base64 in its JSON).
 */
import { parseDataUrl } from '../common/data-url';
import { type JsonObject, arr, compact, isRecord, obj, parseJson, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

type Block = JsonObject;
interface Turn {
  role: 'user' | 'assistant';
  content: Block[];
}

const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };
const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

function imageBlock(url: string): Block {
  const inline = parseDataUrl(url);
  const format = inline ? IMAGE_FORMATS[inline.mediaType.toLowerCase()] : undefined;
  // Converse takes the image's bytes only (providers do no I/O: a URL is not fetched here).
  if (!inline || !format) throw new ProviderRequestError('Bedrock takes images as base64 data URLs of PNG, JPEG, GIF or WebP', 'invalid_request');
  return { image: { format, source: { bytes: inline.data } } };
}

function documentBlock(part: JsonObject, index: number): Block {
  const file = obj(part.file);
  const inline = parseDataUrl(str(file.file_data) ?? '');
  const format = inline ? DOCUMENT_FORMATS[inline.mediaType.toLowerCase()] : undefined;
  if (!inline || !format) throw new ProviderRequestError('Bedrock takes files as base64 data URLs of PDF, CSV, DOC(X), XLS(X), HTML, TXT or MD', 'invalid_request');
  // Converse names documents with letters, digits, spaces, hyphens, parentheses and brackets only.
  const name = (str(file.filename) ?? `document ${index + 1}`).replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ').trim() || `document ${index + 1}`;
  return { document: { format, name, source: { bytes: inline.data } } };
}

function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  const blocks: Block[] = [];
  arr(content).forEach((raw, index) => {
    const part = obj(raw);
    if (part.type === 'text') {
      if (str(part.text)) blocks.push({ text: part.text });
    } else if (part.type === 'image_url') {
      blocks.push(imageBlock(typeof part.image_url === 'string' ? part.image_url : (str(obj(part.image_url).url) ?? '')));
    } else if (part.type === 'file') {
      blocks.push(documentBlock(part, index));
    } else {
      throw new ProviderRequestError(`content type ${String(part.type)} is not supported by Bedrock`, 'invalid_request');
    }
  });
  return blocks;
}

function toolUseBlocks(toolCalls: unknown): Block[] {
  return arr(toolCalls).map((raw) => {
    const call = obj(raw);
    const fn = obj(call.function);
    const text = str(fn.arguments) ?? '';
    const input = text.trim() ? parseJson(text) : {};
    if (!isRecord(input)) throw new ProviderRequestError(`invalid arguments for function ${str(fn.name) ?? ''}`, 'invalid_request');
    return { toolUse: { toolUseId: str(call.id) ?? '', name: str(fn.name) ?? '', input } };
  });
}

function toolResultBlock(message: JsonObject): Block {
  const text = contentText(message.content);
  const parsed = parseJson(text);
  return { toolResult: { toolUseId: str(message.tool_call_id) ?? '', content: [isRecord(parsed) ? { json: parsed } : { text: text || '(empty)' }] } };
}

/** Adds a turn; a turn of the same role as the one before joins it (Converse wants them to alternate). */
function pushTurn(turns: Turn[], role: Turn['role'], content: Block[]): void {
  if (content.length === 0) return;
  const last = turns[turns.length - 1];
  if (last && last.role === role) last.content.push(...content);
  else turns.push({ role, content });
}

function convertMessages(messages: unknown[]): { system: Block[]; turns: Turn[] } {
  const system: Block[] = [];
  const turns: Turn[] = [];
  for (const raw of messages) {
    const message = obj(raw);
    const role = str(message.role) ?? 'user';
    if (role === 'system' || role === 'developer') {
      const text = contentText(message.content);
      if (text) system.push({ text });
    } else if (role === 'tool' || role === 'function') {
      pushTurn(turns, 'user', [toolResultBlock(message)]);
    } else if (role === 'assistant') {
      pushTurn(turns, 'assistant', [...contentBlocks(message.content), ...toolUseBlocks(message.tool_calls)]);
    } else {
      pushTurn(turns, 'user', contentBlocks(message.content));
    }
  }
  if (turns.length === 0 || turns[0].role !== 'user') turns.unshift({ role: 'user', content: [{ text: '...' }] });
  return { system, turns };
}

function toolConfig(body: JsonObject): JsonObject | undefined {
  const tools = arr(body.tools)
    .map((raw) => obj(obj(raw).function))
    .filter((fn) => str(fn.name))
    .map((fn) => ({ toolSpec: compact({ name: fn.name, description: str(fn.description), inputSchema: { json: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} } } }) }));
  if (tools.length === 0) return undefined;
  const choice = body.tool_choice;
  const name = str(obj(obj(choice).function).name);
  // Converse has no "none": the tools stay declared (earlier turns may use them), no choice is forced.
  const toolChoice = choice === 'required' ? { any: {} } : name ? { tool: { name } } : choice === 'auto' ? { auto: {} } : undefined;
  return compact({ tools, toolChoice });
}

function inferenceConfig(body: JsonObject): JsonObject | undefined {
  const maxTokens = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? body.max_tokens : body.max_completion_tokens;
  const stop = typeof body.stop === 'string' ? [body.stop] : arr(body.stop).filter((s): s is string => typeof s === 'string' && s !== '');
  const config = compact({
    maxTokens: typeof maxTokens === 'number' && maxTokens > 0 ? maxTokens : undefined,
    temperature: typeof body.temperature === 'number' ? body.temperature : undefined,
    topP: typeof body.top_p === 'number' ? body.top_p : undefined,
    stopSequences: stop.length > 0 ? stop : undefined,
  });
  return Object.keys(config).length > 0 ? config : undefined;
}

export function converseRequestFromOpenAI(body: JsonObject): JsonObject {
  const { system, turns } = convertMessages(arr(body.messages));
  return compact({
    messages: turns,
    system: system.length > 0 ? system : undefined,
    inferenceConfig: inferenceConfig(body),
    toolConfig: toolConfig(body),
  });
}
