/**
 * The stream converter for upstreams that speak the Responses API themselves (OpenAI, Azure):
 * every event goes on as it came, with its `event:` name (the client's SDK reads the same
 * events OpenAI sends). Only the events that matter to the relay are read: the response id of
 * `response.created` (so the relay can tell where the response is stored), the usage of the
 * closing `response.completed` / `response.incomplete` / `response.failed`, and `error`.
 */
import type { SseEvent, StreamConverter, StreamStep, Usage } from '../types';
import { isRecord, num, obj, parseJson, str } from './json';
import { finalUsage } from './usage';

const LEADING_TYPE = /^\s*\{\s*"type"\s*:\s*"([^"]+)"/;

/** The event's type: its `event:` name, else the `type` field that OpenAI puts first. */
function eventType(event: SseEvent): string | undefined {
  return event.event ?? LEADING_TYPE.exec(event.data)?.[1];
}

const READ: ReadonlySet<string> = new Set(['response.created', 'response.completed', 'response.incomplete', 'response.failed', 'error']);

/** The deltas whose text is generated output (read only when the stream brought no usage). */
const TEXT_DELTAS: ReadonlySet<string> = new Set([
  'response.output_text.delta',
  'response.function_call_arguments.delta',
  'response.reasoning_summary_text.delta',
  'response.custom_tool_call_input.delta',
]);

export class ResponsesPassThroughStream implements StreamConverter {
  private usage: Usage | undefined;
  /** The upstream's response id, from its first event. */
  responseId: string | undefined;
  /** The stream reached `response.completed` (the response exists upstream as a whole). */
  completed = false;

  constructor(private readonly readUsage: (raw: unknown) => Usage | undefined) {}

  onEvent(event: SseEvent): StreamStep {
    const data = event.data;
    if (data === '[DONE]') return { out: [], usage: this.usage };
    const type = eventType(event);
    const unknownType = type === undefined && (data.includes('"usage"') || data.includes('"error"'));
    if (!unknownType && (type === undefined || !READ.has(type))) return { out: [event], usage: this.usage, rawText: data };
    const body = parseJson(data);
    if (!isRecord(body)) return { out: [event], usage: this.usage };
    const kind = type ?? str(body.type);
    if (kind === 'error') {
      const error = isRecord(body.error) ? body.error : body;
      const code = typeof error.code === 'string' || typeof error.code === 'number' ? error.code : null;
      const message = str(error.message) || 'upstream stream error';
      return { out: [{ event: 'error', data }], usage: this.usage, error: { status: num(body.status) || 500, message, type: str(error.type) || 'upstream_error', code } };
    }
    const response = obj(body.response);
    this.responseId ??= str(response.id);
    if (kind === 'response.completed') this.completed = true;
    const usage = this.readUsage(response.usage);
    if (usage) this.usage = usage;
    return { out: [event], usage: this.usage };
  }

  textOf(raw: string): string {
    const body = obj(parseJson(raw));
    return TEXT_DELTAS.has(str(body.type) ?? '') ? (str(body.delta) ?? '') : '';
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    return { out: [], usage: finalUsage(this.usage, fallbackUsage) };
  }
}
