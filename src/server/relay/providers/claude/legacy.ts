/**
 * The legacy Text Completions API (`/v1/complete`), used only for claude-instant and claude-2
 * (docs/relay.md#claude): the chat becomes one `Human:`/`Assistant:` prompt; answers carry no usage.
 */
import { ChatChunkStream } from '../common/chunk-stream';
import { chatChunk, chatCompletion, newId, sseJson } from '../common/chunks';
import { errorFromBody } from '../common/errors';
import { type JsonObject, arr, compact, isRecord, obj, parseJson, str } from '../common/json';
import type { ParsedResponse, SseEvent, StreamStep } from '../types';
import { claudeBodyError } from './chat-response';
import { nowSeconds } from '../../../../shared/time';

const MAX_TOKENS_TO_SAMPLE = 4096;

function plainText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => str(obj(part).text) ?? '')
    .join('');
}

/** A leading system message becomes the prompt's prefix; the rest alternate Human/Assistant turns. */
export function legacyPrompt(messages: unknown[]): string {
  let prompt = '';
  messages.forEach((raw, index) => {
    const message = obj(raw);
    const text = plainText(message.content);
    if (message.role === 'system' && index === 0) prompt += text;
    else if (message.role === 'assistant') prompt += `\n\nAssistant: ${text}`;
    else prompt += `\n\nHuman: ${text}`;
  });
  return `${prompt}\n\nAssistant:`;
}

export function legacyBody(body: JsonObject, model: string): JsonObject {
  const stop = typeof body.stop === 'string' ? [body.stop] : arr(body.stop).filter((s) => typeof s === 'string');
  return compact({
    model,
    prompt: legacyPrompt(arr(body.messages)),
    max_tokens_to_sample: typeof body.max_tokens === 'number' && body.max_tokens > 0 ? body.max_tokens : MAX_TOKENS_TO_SAMPLE,
    stop_sequences: stop.length > 0 ? stop : undefined,
    temperature: typeof body.temperature === 'number' ? body.temperature : undefined,
    top_p: typeof body.top_p === 'number' ? body.top_p : undefined,
    top_k: typeof body.top_k === 'number' ? body.top_k : undefined,
    stream: body.stream === true ? true : undefined,
  });
}

function legacyFinish(reason: unknown): string | null {
  if (reason === 'stop_sequence') return 'stop';
  if (reason === 'max_tokens') return 'length';
  return reason ? String(reason) : null;
}

export function parseLegacyResponse(json: unknown): ParsedResponse {
  const error = claudeBodyError(json);
  if (error) return { body: json, error };
  const answer = obj(json);
  const text = str(answer.completion) ?? '';
  const body = chatCompletion({
    meta: { id: str(answer.id) ?? newId('chatcmpl-'), created: nowSeconds(), model: str(answer.model) ?? '' },
    content: text,
    finishReason: legacyFinish(answer.stop_reason),
  });
  return { body, text };
}

/** `event: completion` events -> OpenAI chunks; usage is always the local count. */
export class LegacyClaudeStream extends ChatChunkStream {
  constructor(model: string, includeUsage: boolean) {
    super(model, includeUsage, newId('chatcmpl-'));
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return { out: [] };
    if (data.type === 'error' || event.event === 'error') return { out: [], error: errorFromBody(500, data) };
    if (data.type !== 'completion' && event.event !== 'completion') return { out: [] };
    if (str(data.model)) this.meta.model = data.model as string;
    const text = str(data.completion) ?? '';
    return { out: [sseJson(chatChunk(this.meta, { content: text }, legacyFinish(data.stop_reason)))], text };
  }
}
