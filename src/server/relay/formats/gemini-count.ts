/**
 * Local token counts of Gemini-native requests: the estimate before the call, the fallback
 * when an answer carries no usage (Gemini's embeddings never do), and `:countTokens`, which
 * is answered here without an upstream call. The chat rules of the tokenizer, applied to
 * Gemini's shapes: 3 per turn and 3 for the reply, text by the model's encoding, each media
 * part at Gemini's flat 258 tokens, calls and results as their JSON text.
 */
import { type JsonObject, arr, obj, str } from '../providers/common/json';
import { countTokens } from '../tokenizer';
import { geminiEmbeddingTexts } from './gemini-embeddings';

/** What Gemini counts for one image (and the estimate for other media we never read). */
const MEDIA_PART_TOKENS = 258;

function partTokens(part: JsonObject, model: string): number {
  if (typeof part.text === 'string') return countTokens(part.text, model);
  if (part.inlineData !== undefined || part.fileData !== undefined || part.inline_data !== undefined || part.file_data !== undefined) return MEDIA_PART_TOKENS;
  if (part.functionCall !== undefined) {
    const call = obj(part.functionCall);
    return countTokens(str(call.name) ?? '', model) + countTokens(JSON.stringify(call.args ?? {}), model);
  }
  if (part.functionResponse !== undefined) {
    const response = obj(part.functionResponse);
    return countTokens(str(response.name) ?? '', model) + countTokens(JSON.stringify(response.response ?? {}), model);
  }
  return 0;
}

function partsTokens(content: unknown, model: string): number {
  let tokens = 0;
  for (const part of arr(obj(content).parts)) tokens += partTokens(obj(part), model);
  return tokens;
}

function toolTokens(tools: unknown, model: string): number {
  let tokens = 0;
  for (const tool of arr(tools)) {
    for (const raw of arr(obj(tool).functionDeclarations)) {
      const fn = obj(raw);
      const schema = fn.parametersJsonSchema ?? fn.parameters;
      tokens += 8 + countTokens(str(fn.name) ?? '', model) + countTokens(str(fn.description) ?? '', model);
      if (schema !== undefined) tokens += countTokens(JSON.stringify(schema), model);
    }
  }
  return tokens;
}

/** A GenerateContentRequest's prompt. */
export function countGeminiPromptTokens(body: JsonObject, model: string): number {
  let tokens = 3;
  const system = body.systemInstruction;
  if (typeof system === 'string') tokens += countTokens(system, model);
  else if (system !== undefined) tokens += partsTokens(system, model);
  for (const content of arr(body.contents)) tokens += 3 + partsTokens(content, model);
  return tokens + toolTokens(body.tools, model);
}

/** `:countTokens` takes `contents`, or a whole `generateContentRequest`. */
export function countTokensRequestTokens(body: JsonObject, model: string): number {
  const request = body.generateContentRequest !== undefined ? obj(body.generateContentRequest) : body;
  return countGeminiPromptTokens(request, model);
}

export function countGeminiEmbeddingTokens(body: JsonObject, model: string): number {
  let tokens = 0;
  for (const text of geminiEmbeddingTexts(body)) tokens += countTokens(text, model);
  return tokens;
}
