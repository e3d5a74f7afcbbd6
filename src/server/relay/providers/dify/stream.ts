/**
 * Dify's streamed events (`data:` lines whose JSON names the `event`) -> OpenAI chat chunks:
 * `message` / `agent_message` carry the answer, `message_end` the usage (`metadata.usage`),
 * `error` a failure; workflow, node, agent-thought and ping events say nothing to an OpenAI
 * client. Dify's "Thinking..." details block is turned into `<think>` tags, as the reference does.
 */
import { type ChunkMeta, chatChunk, nowSeconds, sseJson, usageChunk } from '../common/chunks';
import { isRecord, num, obj, parseJson, str } from '../common/json';
import { finalUsage, usageFromOpenAI } from '../common/usage';
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../types';

const THINKING_OPEN = '<details style="color:gray;background-color: #f8f8f8;padding: 8px;border-radius: 4px;" open> <summary> Thinking... </summary>\n';
const THINKING_CLOSE = '</details>';

function answerText(answer: string): string {
  if (answer === THINKING_OPEN) return '<think>';
  if (answer === THINKING_CLOSE) return '</think>';
  return answer;
}

export class DifyToOpenAIStream implements StreamConverter {
  private readonly meta: ChunkMeta;
  private usage: Usage | undefined;
  private started = false;

  constructor(
    model: string,
    private readonly includeUsage: boolean,
  ) {
    this.meta = { id: '', created: nowSeconds(), model };
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return { out: [], usage: this.usage };
    if (!this.meta.id && str(data.conversation_id)) this.meta.id = data.conversation_id as string;
    switch (str(data.event) ?? event.event) {
      case 'message':
      case 'agent_message': {
        const text = answerText(str(data.answer) ?? '');
        if (!text) return { out: [], usage: this.usage };
        const delta = this.started ? { content: text } : { role: 'assistant', content: text };
        this.started = true;
        return { out: [sseJson(chatChunk(this.meta, delta))], usage: this.usage, text };
      }
      case 'message_end':
        this.usage = usageFromOpenAI(obj(data.metadata).usage) ?? this.usage;
        return { out: [sseJson(chatChunk(this.meta, {}, 'stop'))], usage: this.usage };
      case 'error': {
        const status = num(data.status) || 500;
        const message = str(data.message) || 'Dify stream error';
        return { out: [], usage: this.usage, error: { status, message, type: 'upstream_error', code: str(data.code) ?? null } };
      }
      default:
        return { out: [], usage: this.usage };
    }
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const usage = finalUsage(this.usage, fallbackUsage);
    const out: SseEvent[] = this.includeUsage && usage ? [sseJson(usageChunk(this.meta, usage))] : [];
    return { out, usage };
  }
}
