/**
 * The common part of the stream converters that build OpenAI chat chunks from another
 * provider's events (Claude, Cohere, Dify): the chunk meta, the usage seen so far, the closing
 * usage chunk a client asked for, and the billed usage at the end.
 */
import type { JsonObject } from './json';
import { type ChunkMeta, chatChunk, nowSeconds, sseJson, usageChunk } from './chunks';
import { finalUsage } from './usage';
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../types';

export abstract class ChatChunkStream implements StreamConverter {
  protected readonly meta: ChunkMeta;
  protected usage: Usage | undefined;

  constructor(
    model: string,
    private readonly includeUsage: boolean,
  ) {
    this.meta = { id: '', created: nowSeconds(), model };
  }

  abstract onEvent(event: SseEvent): StreamStep;

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const usage = finalUsage(this.usage, fallbackUsage);
    const out: SseEvent[] = this.includeUsage && usage ? [sseJson(usageChunk(this.meta, usage))] : [];
    return { out, usage };
  }

  /** One chunk with this delta; `text` is what it generated, for local counting. */
  protected emit(delta: JsonObject, finishReason: string | null = null, text?: string): StreamStep {
    return { out: [sseJson(chatChunk(this.meta, delta, finishReason))], usage: this.usage, ...(text ? { text } : {}) };
  }

  /** A step that sends nothing. */
  protected nothing(): StreamStep {
    return { out: [], usage: this.usage };
  }
}
