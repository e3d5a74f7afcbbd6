/** Builders for OpenAI chat answers and stream chunks, used by every converting provider. */
import type { SseEvent, Usage } from '../types';
import { openaiUsageBody } from './usage';

export interface ChunkMeta {
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
}

/** `<prefix><random>` ids such as `chatcmpl-…` and `call_…` (the Web Crypto global, no import). */
export function newId(prefix: string): string {
  return prefix + crypto.randomUUID().replace(/-/g, '');
}

/** One server-sent event carrying JSON. */
export function sseJson(value: unknown, event?: string): SseEvent {
  return event ? { event, data: JSON.stringify(value) } : { data: JSON.stringify(value) };
}

/** One `chat.completion.chunk` with a single choice (index 0). */
export function chatChunk(meta: ChunkMeta, delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** The closing usage chunk of `stream_options.include_usage` (empty choices). */
export function usageChunk(meta: ChunkMeta, usage: Usage): Record<string, unknown> {
  return { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, choices: [], usage: openaiUsageBody(usage) };
}

export interface ToolCallOut {
  id: string;
  name: string;
  /** JSON text of the arguments. */
  arguments: string;
}

/** A non-stream `chat.completion` with one choice. */
export function chatCompletion(args: { meta: ChunkMeta; content: string | null; reasoning?: string; toolCalls?: ToolCallOut[]; finishReason: string | null; usage?: Usage }): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: args.content };
  if (args.reasoning) message.reasoning_content = args.reasoning;
  if (args.toolCalls && args.toolCalls.length > 0) {
    message.tool_calls = args.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  }
  const body: Record<string, unknown> = {
    id: args.meta.id,
    object: 'chat.completion',
    created: args.meta.created,
    model: args.meta.model,
    choices: [{ index: 0, message, finish_reason: args.finishReason }],
  };
  if (args.usage) body.usage = openaiUsageBody(args.usage);
  return body;
}
