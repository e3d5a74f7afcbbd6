/**
 * The shared half of every converter that turns a provider's OpenAI chat stream into another
 * client format (Claude's events, Gemini's chunks, the Responses API's events): it feeds the
 * provider's converter, converts each chat chunk that one emits, and passes the relay's other
 * calls through. A subclass says what one chunk becomes and how the stream closes.
 */
import type { SseEvent, StreamConverter, StreamStep, UpstreamError, Usage } from '../providers/types';

export abstract class ChatStreamWrapper implements StreamConverter {
  /** `inner` is the provider's chat converter (created without include_usage: its usage arrives in steps). */
  constructor(protected readonly inner: StreamConverter) {}

  /** The client's events for one chat chunk of the provider's converter. */
  protected abstract convert(chunk: SseEvent): SseEvent[];

  abstract finish(fallbackUsage?: Usage | (() => Usage)): StreamStep;

  onEvent(upstream: SseEvent): StreamStep {
    const step = this.inner.onEvent(upstream);
    const out: SseEvent[] = [];
    for (const chunk of step.out) for (const event of this.convert(chunk)) out.push(event);
    return { ...step, out };
  }

  onChunk(text: string, whole: boolean): UpstreamError | void {
    return this.inner.onChunk?.(text, whole);
  }

  release(): void {
    this.inner.release?.();
  }

  textOf(raw: string): string {
    return this.inner.textOf?.(raw) ?? '';
  }
}
