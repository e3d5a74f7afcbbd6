/**
 * Dify's streamed events (`data:` lines whose JSON names the `event`) -> OpenAI chat chunks:
 * `message` / `agent_message` carry the answer, `message_end` the usage (`metadata.usage`),
 * `error` a failure; workflow and node events become reasoning text (`Workflow: <id>`, `Node:
 * <type>`, with the status when finished) unless `DIFY_DEBUG` is off; agent thoughts and pings say
 * nothing. Dify's "Thinking..." details block is turned into `<think>` tags, as the reference does.
 */
import { ChatChunkStream } from '../common/chunk-stream';
import { isRecord, num, obj, parseJson, str } from '../common/json';
import { usageFromOpenAI } from '../common/usage';
import type { SseEvent, StreamStep } from '../types';

const THINKING_OPEN = '<details style="color:gray;background-color: #f8f8f8;padding: 8px;border-radius: 4px;" open> <summary> Thinking... </summary>\n';
const THINKING_CLOSE = '</details>';

function answerText(answer: string): string {
  if (answer === THINKING_OPEN) return '<think>';
  if (answer === THINKING_CLOSE) return '</think>';
  return answer;
}

export class DifyToOpenAIStream extends ChatChunkStream {
  private started = false;

  constructor(
    model: string,
    includeUsage: boolean,
    private readonly debug: boolean,
  ) {
    super(model, includeUsage);
  }

  onEvent(event: SseEvent): StreamStep {
    const data = parseJson(event.data);
    if (!isRecord(data)) return this.nothing();
    if (!this.meta.id && str(data.conversation_id)) this.meta.id = data.conversation_id as string;
    const name = str(data.event) ?? event.event ?? '';
    if (name.startsWith('workflow_') || name.startsWith('node_')) return this.debug ? this.step(name, obj(data.data)) : this.nothing();
    switch (name) {
      case 'message':
      case 'agent_message': {
        const text = answerText(str(data.answer) ?? '');
        if (!text) return this.nothing();
        const delta = this.started ? { content: text } : { role: 'assistant', content: text };
        this.started = true;
        return this.emit(delta, null, text);
      }
      case 'message_end':
        this.usage = usageFromOpenAI(obj(data.metadata).usage) ?? this.usage;
        return this.emit({}, 'stop');
      case 'error': {
        const status = num(data.status) || 500;
        const message = str(data.message) || 'Dify stream error';
        return { out: [], usage: this.usage, error: { status, message, type: 'upstream_error', code: str(data.code) ?? null } };
      }
      default:
        return this.nothing();
    }
  }

  private step(name: string, data: Record<string, unknown>): StreamStep {
    let text = name.startsWith('workflow_') ? `Workflow: ${str(data.workflow_id) ?? ''}` : `Node: ${str(data.node_type) ?? ''}`;
    if (name === 'workflow_finished' || name === 'node_finished') text += ` ${str(data.status) ?? ''}`;
    text += '\n';
    return this.emit({ reasoning_content: text }, null, text);
  }
}
