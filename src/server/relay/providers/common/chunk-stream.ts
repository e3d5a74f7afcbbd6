/**
 * What every converter of an upstream stream into OpenAI chat chunks keeps: the chunks' id,
 * time and model, the latest usage, one chunk per step, a tool call's index per upstream
 * block, and the closing usage chunk a client asked for with `stream_options.include_usage`.
 */
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../types';
import { type ChunkMeta, chatChunk, sseJson, usageChunk } from './chunks';
import type { JsonObject } from './json';
import { finalUsage } from './usage';
import { nowSeconds } from '../../../../shared/time';

export abstract class ChatChunkStream implements StreamConverter {
  protected readonly meta: ChunkMeta;
  protected usage: Usage | undefined;
  /** Upstream block index -> OpenAI tool call index (0, 1, … in order of appearance). */
  protected readonly toolIndex = new Map<number, number>();

  constructor(
    model: string,
    private readonly includeUsage: boolean,
    id = '',
  ) {
    this.meta = { id, created: nowSeconds(), model };
  }

  abstract onEvent(event: SseEvent): StreamStep;

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const usage = finalUsage(this.usage, fallbackUsage);
    return { out: this.includeUsage && usage ? [sseJson(usageChunk(this.meta, usage))] : [], usage };
  }

  /** A step with nothing for the client. */
  protected nothing(): StreamStep {
    return { out: [], usage: this.usage };
  }

  /** A step of one chunk; `text` is what it adds to the answer (local counting). */
  protected emit(delta: JsonObject, finishReason: string | null = null, text?: string): StreamStep {
    return { out: [sseJson(chatChunk(this.meta, delta, finishReason))], usage: this.usage, ...(text ? { text } : {}) };
  }

  /** The next tool call's index, remembered for the upstream block that carries it. */
  protected newToolCall(block: number): number {
    const index = this.toolIndex.size;
    this.toolIndex.set(block, index);
    return index;
  }
}
