/**
 * Gemini `GenerateContentRequest` -> OpenAI chat request, for Gemini-native callers
 * (`/v1beta/models/{model}:generateContent`) served by channels that do not speak Gemini
 * (OpenAI, Claude, OpenAI-compatible): their providers take OpenAI chat. Fields without an
 * OpenAI meaning (safety settings, cached content, topK, Google's built-in tools) are dropped.
 * Parts no chat upstream can take (a remote non-image file) are refused with a 400.
 */
import { isHttpUrl, mediaTypeFromUrl } from '../providers/common/data-url';
import { type JsonObject, arr, compact, isRecord, obj, optionalNum, str } from '../providers/common/json';
import { chatStreamFields } from './chat-stream-request';
import { ProviderRequestError } from '../providers/types';

export interface ChatFromGeminiOptions {
  /** The model named in the path (the chat body's `model`). */
  model: string;
  stream: boolean;
  /**
   * The upstream model takes `reasoning_effort` (OpenAI's reasoning models): only then does a
   * thinking budget become one, since other models refuse the field.
   */
  reasoningEffort: boolean;
}

type ChatPart = JsonObject;

const AUDIO_FORMATS: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/mp3': 'mp3', 'audio/mpeg': 'mp3' };

/** Inline bytes -> the chat part that carries them: images, audio, and files (PDF …). */
function inlinePart(inline: JsonObject): ChatPart {
  const mimeType = str(inline.mimeType) ?? str(inline.mime_type) ?? 'application/octet-stream';
  const data = str(inline.data) ?? '';
  if (mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url: `data:${mimeType};base64,${data}` } };
  const audio = AUDIO_FORMATS[mimeType];
  if (audio) return { type: 'input_audio', input_audio: { data, format: audio } };
  return { type: 'file', file: { filename: 'file', file_data: `data:${mimeType};base64,${data}` } };
}

/** A file by URI: only images travel by URL in OpenAI chat. */
function filePart(file: JsonObject): ChatPart {
  const uri = str(file.fileUri) ?? str(file.file_uri) ?? '';
  const mimeType = str(file.mimeType) ?? str(file.mime_type) ?? mediaTypeFromUrl(uri) ?? '';
  if (!isHttpUrl(uri) || !mimeType.startsWith('image/')) {
    throw new ProviderRequestError('fileData parts can only be images at an http(s) URL on this model', 'invalid_request');
  }
  return { type: 'image_url', image_url: { url: uri } };
}

/** Gemini's OpenAPI-style schemas spell types in capitals (`OBJECT`); JSON Schema wants lower case. */
export function jsonSchemaFromGemini(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaFromGemini);
  if (!isRecord(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'type' && Array.isArray(value)) out.type = value.map((t) => (typeof t === 'string' ? t.toLowerCase() : t));
    else if (key === 'properties' && isRecord(value)) out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, jsonSchemaFromGemini(sub)]));
    else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'additionalProperties') out[key] = jsonSchemaFromGemini(value);
    else out[key] = value;
  }
  return out;
}

function partText(part: JsonObject): string | undefined {
  if (typeof part.text === 'string') return part.text;
  if (part.executableCode !== undefined) {
    const code = obj(part.executableCode);
    return '```' + (str(code.language)?.toLowerCase() ?? '') + '\n' + (str(code.code) ?? '') + '\n```';
  }
  if (part.codeExecutionResult !== undefined) return '```output\n' + (str(obj(part.codeExecutionResult).output) ?? '') + '\n```';
  return undefined;
}

/** Tool call ids: Gemini's own when the client sent them, else made up and matched by name. */
class CallIds {
  private next = 0;
  private readonly open = new Map<string, string[]>();

  forCall(name: string, id: string | undefined): string {
    const callId = id || `call_${++this.next}`;
    const list = this.open.get(name) ?? [];
    list.push(callId);
    this.open.set(name, list);
    return callId;
  }

  forResponse(name: string, id: string | undefined): string {
    const list = this.open.get(name) ?? [];
    const at = id ? list.indexOf(id) : 0;
    if (at >= 0 && list.length > 0) return list.splice(at, 1)[0]!;
    return id || `call_${name}`;
  }
}

function modelTurn(parts: JsonObject[], ids: CallIds): JsonObject {
  let text = '';
  const toolCalls: JsonObject[] = [];
  for (const part of parts) {
    // The model's own thoughts are its private reasoning: no chat upstream takes them back.
    if (part.thought === true) continue;
    if (part.functionCall !== undefined) {
      const call = obj(part.functionCall);
      const name = str(call.name) ?? '';
      toolCalls.push({ id: ids.forCall(name, str(call.id)), type: 'function', function: { name, arguments: JSON.stringify(obj(call.args)) } });
      continue;
    }
    const t = partText(part);
    if (t !== undefined) text += t;
  }
  return compact({ role: 'assistant', content: text || (toolCalls.length > 0 ? null : ''), tool_calls: toolCalls.length > 0 ? toolCalls : undefined });
}

/** A user turn: tool results first (OpenAI wants them right after the assistant's calls), then the rest. */
function userTurn(parts: JsonObject[], ids: CallIds): JsonObject[] {
  const out: JsonObject[] = [];
  const content: ChatPart[] = [];
  for (const part of parts) {
    if (part.functionResponse !== undefined) {
      const response = obj(part.functionResponse);
      const name = str(response.name) ?? '';
      const result = response.response;
      out.push({ role: 'tool', tool_call_id: ids.forResponse(name, str(response.id)), content: typeof result === 'string' ? result : JSON.stringify(result ?? {}) });
    } else if (part.inlineData !== undefined || part.inline_data !== undefined) {
      content.push(inlinePart(obj(part.inlineData ?? part.inline_data)));
    } else if (part.fileData !== undefined || part.file_data !== undefined) {
      content.push(filePart(obj(part.fileData ?? part.file_data)));
    } else {
      const t = partText(part);
      if (t) content.push({ type: 'text', text: t });
    }
  }
  if (content.length > 0) {
    const allText = content.every((p) => p.type === 'text');
    out.push({ role: 'user', content: allText ? content.map((p) => p.text as string).join('\n') : content });
  }
  return out;
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  return arr(obj(system).parts)
    .map((p) => str(obj(p).text) ?? '')
    .filter(Boolean)
    .join('\n');
}

function convertTools(tools: unknown): JsonObject[] | undefined {
  const out: JsonObject[] = [];
  for (const tool of arr(tools)) {
    // googleSearch, codeExecution, urlContext … are Google's own tools: nothing to forward.
    for (const raw of arr(obj(tool).functionDeclarations ?? obj(tool).function_declarations)) {
      const fn = obj(raw);
      const schema = fn.parametersJsonSchema ?? fn.parameters;
      const parameters = isRecord(schema) ? jsonSchemaFromGemini(schema) : { type: 'object', properties: {} };
      out.push({ type: 'function', function: compact({ name: str(fn.name) ?? '', description: str(fn.description), parameters }) });
    }
  }
  return out.length > 0 ? out : undefined;
}

function convertToolChoice(toolConfig: unknown): unknown {
  const config = obj(obj(toolConfig).functionCallingConfig);
  const allowed = arr(config.allowedFunctionNames).filter((n): n is string => typeof n === 'string');
  switch (config.mode) {
    case 'NONE':
      return 'none';
    case 'ANY':
      return allowed.length === 1 ? { type: 'function', function: { name: allowed[0] } } : 'required';
    case 'AUTO':
      return 'auto';
    default:
      return undefined;
  }
}

/** thinkingBudget (tokens, -1 dynamic) or thinkingLevel -> OpenAI's three efforts. */
export function effortFromThinking(thinking: unknown): string | undefined {
  const config = obj(thinking);
  const level = str(config.thinkingLevel)?.toUpperCase();
  if (level === 'MINIMAL' || level === 'LOW') return 'low';
  if (level === 'MEDIUM') return 'medium';
  if (level === 'HIGH') return 'high';
  const budget = config.thinkingBudget;
  if (typeof budget !== 'number' || budget < 0) return undefined;
  if (budget <= 1024) return 'low';
  return budget <= 8192 ? 'medium' : 'high';
}

function responseFormat(config: JsonObject): JsonObject | undefined {
  if (config.responseMimeType !== 'application/json') return undefined;
  const schema = config.responseJsonSchema ?? config.responseSchema;
  if (!isRecord(schema)) return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: 'response', schema: jsonSchemaFromGemini(schema) } };
}

export function chatRequestFromGemini(body: JsonObject, options: ChatFromGeminiOptions): JsonObject {
  const messages: JsonObject[] = [];
  const system = systemText(body.systemInstruction ?? body.system_instruction);
  if (system) messages.push({ role: 'system', content: system });
  const ids = new CallIds();
  for (const raw of arr(body.contents)) {
    const content = obj(raw);
    const parts = arr(content.parts).map(obj);
    if (content.role === 'model') messages.push(modelTurn(parts, ids));
    else messages.push(...userTurn(parts, ids));
  }
  const config = obj(body.generationConfig ?? body.generation_config);
  const stop = arr(config.stopSequences).filter((s) => typeof s === 'string');
  const tools = convertTools(body.tools);
  const maxTokens = optionalNum(config.maxOutputTokens);
  return compact({
    model: options.model,
    messages,
    max_tokens: maxTokens !== undefined && maxTokens > 0 ? maxTokens : undefined,
    temperature: optionalNum(config.temperature),
    top_p: optionalNum(config.topP),
    stop: stop.length > 0 ? stop : undefined,
    presence_penalty: optionalNum(config.presencePenalty),
    frequency_penalty: optionalNum(config.frequencyPenalty),
    seed: optionalNum(config.seed),
    response_format: responseFormat(config),
    reasoning_effort: options.reasoningEffort ? effortFromThinking(config.thinkingConfig) : undefined,
    ...chatStreamFields(options.stream),
    tools,
    tool_choice: tools ? convertToolChoice(body.toolConfig) : undefined,
  });
}
