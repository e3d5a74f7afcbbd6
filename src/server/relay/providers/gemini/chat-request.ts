/** OpenAI chat request -> Gemini generateContent request (docs/relay.md#gemini). */
import { isHttpUrl, mediaTypeFromUrl, parseDataUrl } from '../common/data-url';
import { type JsonObject, arr, compact, isRecord, obj, parseJson, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { budgetForEffort } from '../common/reasoning';
import { ProviderRequestError, type ProviderOptions } from '../types';
import { safetySettings } from './api';
import { cleanSchema } from './schema';

type Part = JsonObject;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

const DEFAULT_MAX_IMAGES = 16;

function imagePart(url: string): Part {
  const inline = parseDataUrl(url);
  if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  if (isHttpUrl(url)) {
    // Providers do no I/O: a remote image is passed by URI for Gemini to fetch.
    const mimeType = mediaTypeFromUrl(url);
    return { fileData: mimeType ? { mimeType, fileUri: url } : { fileUri: url } };
  }
  throw new ProviderRequestError('image_url must be a data URL or an http(s) URL', 'invalid_request');
}

function contentParts(content: unknown, maxImages: number): Part[] {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  const parts: Part[] = [];
  let images = 0;
  for (const raw of arr(content)) {
    const part = obj(raw);
    switch (part.type) {
      case 'text':
        if (str(part.text)) parts.push({ text: part.text });
        break;
      case 'image_url': {
        images += 1;
        if (maxImages >= 0 && images > maxImages) {
          throw new ProviderRequestError(`too many images in the message, max allowed is ${maxImages}`, 'invalid_request');
        }
        const url = typeof part.image_url === 'string' ? part.image_url : (str(obj(part.image_url).url) ?? '');
        parts.push(imagePart(url));
        break;
      }
      case 'file': {
        const inline = parseDataUrl(str(obj(part.file).file_data) ?? '');
        if (!inline) throw new ProviderRequestError('only base64 file is supported in gemini', 'invalid_request');
        parts.push({ inlineData: { mimeType: inline.mediaType, data: inline.data } });
        break;
      }
      case 'input_audio': {
        const audio = obj(part.input_audio);
        const data = str(audio.data);
        if (!data || isHttpUrl(data)) throw new ProviderRequestError('only base64 audio is supported in gemini', 'invalid_request');
        parts.push({ inlineData: { mimeType: `audio/${str(audio.format) ?? 'wav'}`, data } });
        break;
      }
      default:
        throw new ProviderRequestError(`content type ${String(part.type)} is not supported by Gemini`, 'invalid_request');
    }
  }
  return parts;
}

function convertMessages(messages: unknown[], maxImages: number): { system?: string; contents: Content[] } {
  const system: string[] = [];
  const contents: Content[] = [];
  // Tool results name their call by id; Gemini wants the function's name.
  const callNames = new Map<string, string>();
  for (const raw of messages) {
    const message = obj(raw);
    const role = str(message.role) ?? 'user';
    if (role === 'system' || role === 'developer') {
      const text = contentText(message.content);
      if (text) system.push(text);
      continue;
    }
    if (role === 'tool' || role === 'function') {
      const name = str(message.name) || callNames.get(str(message.tool_call_id) ?? '') || '';
      const text = contentText(message.content);
      const parsed = parseJson(text);
      const part: Part = { functionResponse: { name, response: { name, content: isRecord(parsed) ? parsed : text } } };
      const last = contents[contents.length - 1];
      if (last && last.role === 'user') last.parts.push(part);
      else contents.push({ role: 'user', parts: [part] });
      continue;
    }
    const parts = contentParts(message.content, maxImages);
    if (role === 'assistant') {
      for (const rawCall of arr(message.tool_calls)) {
        const call = obj(rawCall);
        const fn = obj(call.function);
        const name = str(fn.name) ?? '';
        const argsText = str(fn.arguments) ?? '';
        const args = argsText.trim() ? parseJson(argsText) : {};
        if (!isRecord(args)) throw new ProviderRequestError(`invalid arguments for function ${name}`, 'invalid_request');
        if (str(call.id)) callNames.set(call.id as string, name);
        parts.push({ functionCall: { name, args } });
      }
    }
    // Gemini refuses turns without parts.
    if (parts.length > 0) contents.push({ role: role === 'assistant' ? 'model' : 'user', parts });
  }
  return { system: system.length > 0 ? system.join('\n') : undefined, contents };
}

/** googleSearch and codeExecution are Gemini's built-in tools; other functions are declarations. */
function convertTools(body: JsonObject): JsonObject[] | undefined {
  const tools: JsonObject[] = [];
  const declarations: JsonObject[] = [];
  for (const raw of arr(body.tools)) {
    const fn = obj(obj(raw).function);
    const name = str(fn.name) ?? '';
    if (name === 'googleSearch') tools.push({ googleSearch: {} });
    else if (name === 'codeExecution') tools.push({ codeExecution: {} });
    else {
      const parameters = cleanSchema(fn.parameters);
      // Gemini refuses an object schema without properties: a function without parameters.
      const hasParameters = isRecord(parameters.properties) && Object.keys(parameters.properties).length > 0;
      declarations.push(compact({ name, description: str(fn.description), parameters: hasParameters ? parameters : undefined }));
    }
  }
  if (declarations.length > 0) tools.push({ functionDeclarations: declarations });
  return tools.length > 0 ? tools : undefined;
}

function convertToolConfig(choice: unknown): JsonObject | undefined {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  const name = str(obj(obj(choice).function).name);
  return name ? { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } } : undefined;
}

function generationConfig(body: JsonObject): JsonObject | undefined {
  const format = obj(body.response_format);
  // A max_tokens of 0 means unset (the reference's omitempty): max_completion_tokens is used then.
  const maxTokens = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? body.max_tokens : body.max_completion_tokens;
  const stop = typeof body.stop === 'string' ? [body.stop] : arr(body.stop).filter((s) => typeof s === 'string');
  const budget = budgetForEffort(body.reasoning_effort);
  const config = compact({
    temperature: typeof body.temperature === 'number' ? body.temperature : undefined,
    topP: typeof body.top_p === 'number' ? body.top_p : undefined,
    topK: typeof body.top_k === 'number' ? body.top_k : undefined,
    maxOutputTokens: typeof maxTokens === 'number' && maxTokens > 0 ? maxTokens : undefined,
    seed: typeof body.seed === 'number' ? body.seed : undefined,
    stopSequences: stop.length > 0 ? stop : undefined,
    responseMimeType: format.type === 'json_object' || format.type === 'json_schema' ? 'application/json' : undefined,
    responseSchema: format.type === 'json_schema' && isRecord(obj(format.json_schema).schema) ? cleanSchema(obj(format.json_schema).schema) : undefined,
    // OpenAI's reasoning control (also what a Claude request's thinking budget becomes): the
    // thoughts are asked back so they reach the client as reasoning.
    thinkingConfig: budget !== undefined ? { thinkingBudget: budget, includeThoughts: true } : undefined,
  });
  return Object.keys(config).length > 0 ? config : undefined;
}

export function geminiRequestFromOpenAI(body: JsonObject, options: ProviderOptions): JsonObject {
  const { system, contents } = convertMessages(arr(body.messages), options.geminiMaxImagesPerMessage ?? DEFAULT_MAX_IMAGES);
  const tools = convertTools(body);
  return compact({
    contents,
    systemInstruction: system ? { parts: [{ text: system }] } : undefined,
    safetySettings: safetySettings(options),
    generationConfig: generationConfig(body),
    tools,
    toolConfig: tools && body.tool_choice !== undefined ? convertToolConfig(body.tool_choice) : undefined,
  });
}
