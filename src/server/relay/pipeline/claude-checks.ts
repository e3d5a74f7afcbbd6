/**
 * The checks of a Claude Messages body (`/v1/messages`, `/v1/messages/count_tokens`) before
 * any channel is chosen: a body Anthropic would refuse is refused here with a 400 in Claude's
 * error shape, instead of reaching an upstream (billed, or converted into something else for a
 * non-Claude channel). The types of what the relay and its converters read are held to
 * Anthropic's API: roles (user, assistant, and the beta's system messages), content as text or a list of known blocks, each block's own fields,
 * system, tools, tool_choice, stop_sequences and thinking. Unknown top-level fields are left
 * alone (forwarded to Claude channels, dropped by the conversions). One pass, no schema library.
 */
import { refuse, type RelayError } from '../errors';

const CODE = 'invalid_request';

/**
 * Block types a client may send (Anthropic's request content blocks, the server-tool ones
 * included, which a Claude-native upstream understands and the chat conversion drops).
 */
const BLOCK_TYPES: ReadonlySet<string> = new Set([
  'text',
  'image',
  'document',
  'search_result',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'tool_reference',
]);

/** What a tool_result's content list may hold. */
const TOOL_RESULT_BLOCK_TYPES: ReadonlySet<string> = new Set(['text', 'image', 'document', 'search_result', 'tool_reference']);

const TOOL_CHOICE_TYPES: ReadonlySet<string> = new Set(['auto', 'any', 'tool', 'none']);
const THINKING_TYPES: ReadonlySet<string> = new Set(['enabled', 'disabled', 'adaptive']);
const SYSTEM_BLOCK_TYPES: ReadonlySet<string> = new Set(['text']);
const SYSTEM_MESSAGE_BLOCK_TYPES: ReadonlySet<string> = new Set(['text', 'tool_addition', 'tool_removal']);
const MAX_BUDGET = 2 ** 30;

function bad(message: string): RelayError {
  return refuse(400, message, CODE);
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(block: Json, field: string, where: string): void {
  if (typeof block[field] !== 'string') throw bad(`${where}.${field}: Input should be a valid string`);
}

function optionalType(value: unknown, type: 'string' | 'boolean', where: string): void {
  if (value !== undefined && value !== null && typeof value !== type) throw bad(`${where}: Input should be a valid ${type}`);
}

/** cache_control: `{type: "ephemeral", ttl?}` wherever a block may carry it. */
function checkCacheControl(value: unknown, where: string): void {
  if (value === undefined || value === null) return;
  if (!isObject(value) || typeof value.type !== 'string') throw bad(`${where}.cache_control: Input should be an object with a type`);
}

/** An image or document source: base64 (media_type + data), url, text (documents), file or content. */
function checkSource(source: unknown, where: string): void {
  if (!isObject(source)) throw bad(`${where}.source: Field required`);
  switch (source.type) {
    case 'base64':
      requireString(source, 'media_type', `${where}.source`);
      requireString(source, 'data', `${where}.source`);
      return;
    case 'url':
      requireString(source, 'url', `${where}.source`);
      return;
    case 'text':
      requireString(source, 'data', `${where}.source`);
      return;
    case 'file':
      requireString(source, 'file_id', `${where}.source`);
      return;
    case 'content':
      if (typeof source.content !== 'string' && !Array.isArray(source.content)) throw bad(`${where}.source.content: Input should be a valid string or list`);
      return;
    default:
      throw bad(`${where}.source.type: Input should be 'base64', 'url', 'text', 'file' or 'content'`);
  }
}

function checkBlock(block: unknown, where: string, allowed: ReadonlySet<string>): void {
  if (!isObject(block)) throw bad(`${where}: Input should be an object`);
  const type = block.type;
  if (typeof type !== 'string') throw bad(`${where}.type: Field required`);
  if (!allowed.has(type)) throw bad(`${where}.type: Input tag '${type}' found using 'type' does not match any of the expected tags`);
  checkCacheControl(block.cache_control, where);
  switch (type) {
    case 'text':
      requireString(block, 'text', where);
      return;
    case 'image':
    case 'document':
      checkSource(block.source, where);
      return;
    case 'tool_use':
    case 'server_tool_use':
      requireString(block, 'id', where);
      requireString(block, 'name', where);
      if (!isObject(block.input)) throw bad(`${where}.input: Input should be a valid dictionary`);
      return;
    case 'tool_result':
      requireString(block, 'tool_use_id', where);
      optionalType(block.is_error, 'boolean', `${where}.is_error`);
      checkToolResultContent(block.content, `${where}.content`);
      return;
    case 'thinking':
      requireString(block, 'thinking', where);
      optionalType(block.signature, 'string', `${where}.signature`);
      return;
    case 'redacted_thinking':
      requireString(block, 'data', where);
      return;
  }
}

/** A tool_result's content: absent, text, or a list of text / image / document blocks. */
function checkToolResultContent(content: unknown, where: string): void {
  if (content === undefined || content === null || typeof content === 'string') return;
  if (!Array.isArray(content)) throw bad(`${where}: Input should be a valid string or list`);
  for (let i = 0; i < content.length; i++) checkBlock(content[i], `${where}.${i}`, TOOL_RESULT_BLOCK_TYPES);
}

/**
 * A `role: "system"` message inside the conversation (Anthropic's beta, which Claude Code
 * sends): text or text / tool_addition / tool_removal blocks, optionally `clear_at` and
 * `output_config`.
 */
function checkSystemMessage(message: Json, where: string): void {
  const content = message.content;
  if (Array.isArray(content)) {
    for (let j = 0; j < content.length; j++) checkBlock(content[j], `${where}.content.${j}`, SYSTEM_MESSAGE_BLOCK_TYPES);
  } else if (content !== undefined && content !== null && typeof content !== 'string') {
    throw bad(`${where}.content: Input should be a valid string or list`);
  }
  optionalType(message.clear_at, 'string', `${where}.clear_at`);
  if (message.output_config !== undefined && message.output_config !== null && !isObject(message.output_config)) throw bad(`${where}.output_config: Input should be a valid dictionary`);
}

function checkMessages(messages: unknown): void {
  // The reference's words for a missing or empty list.
  if (messages === undefined || messages === null || (Array.isArray(messages) && messages.length === 0)) throw bad('field messages is required');
  if (!Array.isArray(messages)) throw bad('messages: Input should be a valid list');
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    const where = `messages.${i}`;
    if (!isObject(message)) throw bad(`${where}: Input should be an object`);
    if (message.role === 'system') {
      checkSystemMessage(message, where);
      continue;
    }
    if (message.role !== 'user' && message.role !== 'assistant') throw bad(`${where}.role: Input should be 'user', 'assistant' or 'system'`);
    const content = message.content;
    if (typeof content === 'string') continue;
    if (!Array.isArray(content)) throw bad(`${where}.content: Input should be a valid string or list`);
    for (let j = 0; j < content.length; j++) checkBlock(content[j], `${where}.content.${j}`, BLOCK_TYPES);
  }
}

/** system: text, or a list of text blocks (each may carry cache_control). */
function checkSystem(system: unknown): void {
  if (system === undefined || system === null || typeof system === 'string') return;
  if (!Array.isArray(system)) throw bad('system: Input should be a valid string or list');
  for (let i = 0; i < system.length; i++) checkBlock(system[i], `system.${i}`, SYSTEM_BLOCK_TYPES);
}

function checkTools(tools: unknown): void {
  if (tools === undefined || tools === null) return;
  if (!Array.isArray(tools)) throw bad('tools: Input should be a valid list');
  for (let i = 0; i < tools.length; i++) {
    const tool: unknown = tools[i];
    if (!isObject(tool)) throw bad(`tools.${i}: Input should be an object`);
    requireString(tool, 'name', `tools.${i}`);
    // Client tools carry a schema; Anthropic's server tools (web_search_…, bash_…) a type instead.
    if (tool.input_schema !== undefined && !isObject(tool.input_schema)) throw bad(`tools.${i}.input_schema: Input should be a valid dictionary`);
    if (tool.input_schema === undefined && typeof tool.type !== 'string') throw bad(`tools.${i}.input_schema: Field required`);
    optionalType(tool.description, 'string', `tools.${i}.description`);
  }
}

function checkToolChoice(choice: unknown): void {
  if (choice === undefined || choice === null) return;
  if (!isObject(choice) || typeof choice.type !== 'string' || !TOOL_CHOICE_TYPES.has(choice.type)) {
    throw bad("tool_choice: Input should be an object whose type is 'auto', 'any', 'tool' or 'none'");
  }
  if (choice.type === 'tool') requireString(choice, 'name', 'tool_choice');
  optionalType(choice.disable_parallel_tool_use, 'boolean', 'tool_choice.disable_parallel_tool_use');
}

function checkThinking(thinking: unknown): void {
  if (thinking === undefined || thinking === null) return;
  if (!isObject(thinking) || typeof thinking.type !== 'string' || !THINKING_TYPES.has(thinking.type)) {
    throw bad("thinking: Input should be an object whose type is 'enabled', 'disabled' or 'adaptive'");
  }
  if (thinking.type !== 'enabled') return;
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 0 || budget > MAX_BUDGET) throw bad('thinking.budget_tokens: Input should be a valid integer');
}

function checkStopSequences(stop: unknown): void {
  if (stop === undefined || stop === null) return;
  if (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string')) throw bad('stop_sequences: Input should be a valid list of strings');
}

function checkNumber(body: Json, field: string): void {
  const value = body[field];
  if (value !== undefined && value !== null && (typeof value !== 'number' || !Number.isFinite(value))) throw bad(`${field}: Input should be a valid number`);
}

/**
 * Everything of a Messages (or count_tokens) body but `model`, `stream` and `max_tokens`,
 * which the endpoint checks with the relay's common rules.
 */
export function checkClaudeBody(body: Json): void {
  checkMessages(body.messages);
  checkSystem(body.system);
  checkTools(body.tools);
  checkToolChoice(body.tool_choice);
  checkThinking(body.thinking);
  checkStopSequences(body.stop_sequences);
  checkNumber(body, 'temperature');
  checkNumber(body, 'top_p');
  checkNumber(body, 'top_k');
  for (const field of ['metadata', 'output_config'] as const) {
    if (body[field] !== undefined && body[field] !== null && !isObject(body[field])) throw bad(`${field}: Input should be a valid dictionary`);
  }
}
