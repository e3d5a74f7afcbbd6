/** Non-stream answers of OpenAI-shaped upstreams: forwarded as they are, with usage read out. */
import { errorInBody } from '../common/errors';
import { isRecord, num, obj } from '../common/json';
import { choicesText } from '../common/openai-text';
import type { ParsedResponse, RelayMode, Usage } from '../types';

/** Rerank answers count tokens in several places (Jina `usage`, SiliconFlow `meta.tokens`, Cohere `meta.billed_units`). */
function rerankUsage(json: Record<string, unknown>): Usage | undefined {
  const meta = obj(json.meta);
  const tokens = num(obj(json.usage).total_tokens) || num(obj(meta.tokens).input_tokens) || num(obj(meta.billed_units).input_tokens);
  return tokens ? { promptTokens: tokens, completionTokens: 0 } : undefined;
}

export function parseOpenAIResponse(mode: RelayMode, json: unknown, readUsage: (raw: unknown) => Usage | undefined): ParsedResponse {
  // A 200 answer with an error object is a failure (docs/relay.md#upstream-errors); 500 lets the retry rules apply.
  const error = errorInBody(json, 500);
  if (error) return { body: json, error };
  if (!isRecord(json)) return { body: json };
  if (mode === 'rerank') return { body: json, usage: rerankUsage(json) };
  const usage = readUsage(json.usage);
  if (usage || (mode !== 'chat' && mode !== 'completions')) return { body: json, usage };
  return { body: json, text: choicesText(json) };
}
