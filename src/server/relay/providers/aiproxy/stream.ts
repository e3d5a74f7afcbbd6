/**
 * AIProxy's library stream -> OpenAI chat chunks. Each `data:` line is
 * `{content, finish, model, documents}`; the documents (kept from whichever event carried them)
 * close the answer as one last chunk with `finish_reason: "stop"`, when the event with
 * `finish: true` arrives, or at the end of the stream if none did. An `{errCode, message}` line
 * is an error. No token counts: the text goes to local counting.
 */
import { ChatChunkStream } from '../common/chunk-stream';
import { arr, isRecord, parseJson, str } from '../common/json';
import { chatChunk, newId, sseJson } from '../common/chunks';
import type { SseEvent, StreamStep, Usage } from '../types';
import { aiproxyErrorInBody, documentsMarkdown } from './response';

export class AiproxyToOpenAIStream extends ChatChunkStream {
  private started = false;
  private closed = false;
  private documents: unknown[] = [];

  constructor(model: string, includeUsage: boolean) {
    super(model, includeUsage, newId('chatcmpl-'));
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return this.nothing();
    const error = aiproxyErrorInBody(data, 500);
    if (error) return { out: [], usage: this.usage, error };
    const documents = arr(data.documents);
    if (documents.length > 0) this.documents = documents;
    const content = str(data.content) ?? '';
    const out: SseEvent[] = [];
    if (content) out.push(sseJson(chatChunk(this.meta, this.started ? { content } : { role: 'assistant', content })));
    this.started ||= content !== '';
    let text = content;
    if (data.finish === true && !this.closed) {
      const close = this.closing();
      out.push(close.event);
      text += close.text;
    }
    return { out, usage: this.usage, ...(text ? { text } : {}) };
  }

  override finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    // A stream cut before its `finish` event still closes with its references, as the reference does
    // (that text arrives after the local count was taken).
    const close = this.closed ? undefined : this.closing();
    const fin = super.finish(fallbackUsage);
    return close ? { ...fin, out: [close.event, ...fin.out] } : fin;
  }

  private closing(): { event: SseEvent; text: string } {
    this.closed = true;
    const text = documentsMarkdown(this.documents);
    return { event: sseJson(chatChunk(this.meta, text ? { content: text } : {}, 'stop')), text };
  }
}
