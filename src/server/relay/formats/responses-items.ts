/**
 * Small shared pieces of the Responses API: the request's `input` as a list of items (a plain
 * string is one user message), the text of a request for local token counting, ids, and the
 * usage object of a Response.
 */
import { type JsonObject, arr, isRecord, obj, str } from '../providers/common/json';
import type { Usage } from '../providers/types';

/** `<prefix>_<32 hex>`, the shape of OpenAI's ids (`resp_`, `msg_`, `fc_`, `rs_`). */
export function responsesId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replace(/-/g, '')}`;
}

/** `input` as items: a string is one user message; objects are kept as sent, anything else dropped. */
export function inputItems(input: unknown): JsonObject[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return arr(input).filter(isRecord);
}

/** The texts of a content value: a string, or parts with `text` (input_text, output_text, refusal). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => str(obj(part).text) ?? str(obj(part).refusal) ?? '')
    .filter(Boolean)
    .join('\n');
}

/** Everything a model reads in a request, as text: instructions, messages, tool calls and results. */
export function requestText(body: JsonObject): string {
  const texts: string[] = [];
  const instructions = str(body.instructions);
  if (instructions) texts.push(instructions);
  for (const item of inputItems(body.input)) {
    if (item.content !== undefined) texts.push(contentText(item.content));
    else if (typeof item.arguments === 'string') texts.push(item.arguments);
    else if (typeof item.output === 'string') texts.push(item.output);
    else if (Array.isArray(item.output)) texts.push(contentText(item.output));
    else if (typeof item.input === 'string') texts.push(item.input);
  }
  return texts.join('\n');
}

/**
 * A Response's `usage`: input includes cached tokens (OpenAI's rule), so a usage whose prompt
 * excludes them (Claude) is added back up, as for chat answers.
 */
export function responsesUsageBody(usage: Usage | undefined): JsonObject {
  if (!usage) return { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };
  const cached = usage.cachedTokens ?? 0;
  const input = usage.promptExcludesCache ? usage.promptTokens + cached + (usage.cacheCreationTokens ?? 0) : usage.promptTokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: input + usage.completionTokens,
  };
}
