/**
 * Claude Messages in and out (`/v1/messages` on a Claude channel, docs/relay.md#claude): the body's
 * known fields are forwarded with the model, default max_tokens and thinking adapter applied; answers and events
 * go back untouched while usage and text are read from them.
 */
import { errorFromBody } from '../common/errors';
import { type JsonObject, arr, isRecord, obj, parseJson, str } from '../common/json';
import { CLAUDE_MESSAGES_SHAPE, knownFieldsOnly } from '../common/known-fields';
import { finalUsage } from '../common/usage';
import type { ParsedResponse, ProviderOptions, SseEvent, StreamConverter, StreamStep, Usage } from '../types';
import { claudeBodyError } from './chat-response';
import { defaultMaxTokens, enableThinking } from './thinking';
import { mergeClaudeUsage, usageFromClaude } from './usage';

/**
 * Only the fields of Claude's Messages format go upstream (the reference's `ClaudeRequest`;
 * `global.pass_through_request_enabled` sends the body as it came); the adapter adds thinking
 * only when the client sent none.
 */
export function nativeClaudeBody(body: JsonObject, args: { model: string; requestModel: string; adapt: boolean; options: ProviderOptions }): JsonObject {
  const out: JsonObject = { ...knownFieldsOnly(body, CLAUDE_MESSAGES_SHAPE), model: args.model };
  if (typeof out.max_tokens !== 'number' || out.max_tokens <= 0) out.max_tokens = defaultMaxTokens(args.options, args.requestModel);
  if (args.adapt && !isRecord(out.thinking)) enableThinking(out, args.options);
  return out;
}

/** The fields Anthropic's count_tokens takes (it refuses sampling fields such as max_tokens). */
const COUNT_FIELDS = ['messages', 'system', 'tools', 'tool_choice', 'thinking', 'mcp_servers', 'context_management'] as const;

/** A Messages body cut down to what count_tokens accepts, for `model`. */
export function countTokensBody(body: JsonObject, model: string): JsonObject {
  const out: JsonObject = { model };
  for (const field of COUNT_FIELDS) if (body[field] !== undefined && body[field] !== null) out[field] = body[field];
  return out;
}

/** Text of Claude content blocks (answers) for local counting. */
function blocksText(content: unknown): string {
  let text = '';
  for (const raw of arr(content)) {
    const block = obj(raw);
    text += str(block.text) ?? str(block.thinking) ?? '';
    if (block.type === 'tool_use') text += (str(block.name) ?? '') + JSON.stringify(block.input ?? {});
  }
  return text;
}

export function parseNativeResponse(json: unknown): ParsedResponse {
  const error = claudeBodyError(json);
  if (error) return { body: json, error };
  const message = obj(json);
  const usage = usageFromClaude(message.usage);
  return usage ? { body: json, usage } : { body: json, text: blocksText(message.content) };
}

/** Forwards Claude's events as `event: <type>` + the upstream data string, reading usage and text on the way. */
export class ClaudePassThroughStream implements StreamConverter {
  private usage: Usage | undefined;

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    const out: SseEvent[] = [{ event: event.event ?? (isRecord(data) ? str(data.type) : undefined), data: event.data }];
    if (!isRecord(data)) return { out, usage: this.usage };
    switch (data.type) {
      case 'message_start':
        this.usage = mergeClaudeUsage(this.usage, { ...obj(obj(data.message).usage), output_tokens: 0 });
        break;
      case 'message_delta':
        this.usage = mergeClaudeUsage(this.usage, data.usage);
        break;
      case 'content_block_start': {
        const block = obj(data.content_block);
        if (block.type === 'tool_use') return { out, usage: this.usage, text: str(block.name) };
        break;
      }
      case 'content_block_delta': {
        const delta = obj(data.delta);
        const text = str(delta.text) ?? str(delta.thinking) ?? str(delta.partial_json);
        return { out, usage: this.usage, ...(text ? { text } : {}) };
      }
      case 'error':
        // The client speaks Claude: it gets the error event itself, then the stream ends.
        return { out, usage: this.usage, error: errorFromBody(500, data) };
    }
    return { out, usage: this.usage };
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    return { out: [], usage: finalUsage(this.usage, fallbackUsage) };
  }
}
