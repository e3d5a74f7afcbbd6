/**
 * The playground's stream (docs/console.md#playground-page): an incremental parser of
 * server-sent events and the rules that move an assistant message through loading →
 * incomplete → complete, or error with the error text appended. Pure, so each rule is
 * unit-tested; `streamChat` is the one function that touches the network.
 */

export type MessageStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  createAt: number;
  status?: MessageStatus;
}

/** Feeds text as it arrives; calls `onData` with each event's data (joined lines), without the `data:` prefix. */
export function createSseParser(onData: (data: string) => void): (chunk: string) => void {
  let buffer = '';
  let data: string[] = [];
  return (chunk) => {
    buffer += chunk;
    const lines = buffer.split(/\r?\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length) onData(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
  };
}

export type ChunkResult = { kind: 'done' } | { kind: 'delta'; text: string } | { kind: 'error'; text: string } | { kind: 'unparsable' };

/** One event's data: `[DONE]`, an OpenAI chunk (its delta text), an error object, or garbage. */
export function readChunk(data: string): ChunkResult {
  if (data.trim() === '[DONE]') return { kind: 'done' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return { kind: 'unparsable' };
  }
  const obj = (parsed ?? {}) as { error?: { message?: string }; choices?: { delta?: { content?: string | null; reasoning_content?: string | null } }[] };
  if (obj.error) return { kind: 'error', text: obj.error.message ?? JSON.stringify(obj.error) };
  return { kind: 'delta', text: obj.choices?.[0]?.delta?.content ?? '' };
}

/** The assistant message after a chunk result. */
export function applyChunk(message: ChatMessage, result: ChunkResult): ChatMessage {
  switch (result.kind) {
    case 'done':
      return { ...message, status: 'complete' };
    case 'delta':
      return { ...message, content: message.content + result.text, status: 'incomplete' };
    case 'error':
      return { ...message, content: appendError(message.content, result.text), status: 'error' };
    default:
      return message;
  }
}

export function appendError(content: string, error: string): string {
  return content ? `${content}\n\n${error}` : error;
}

export interface ChatRequest {
  messages: { role: string; content: string }[];
  stream: true;
  model: string;
  group: string;
  temperature: number;
  max_tokens?: number;
}

/** The request body from the settings and the conversation (system prompt first when set). */
export function buildRequest(settings: { model: string; group: string; temperature: number; max_tokens: number; system: string }, history: ChatMessage[]): ChatRequest {
  const messages = history.filter((m) => m.role !== 'assistant' || m.status !== 'error').map((m) => ({ role: m.role, content: m.content }));
  if (settings.system.trim()) messages.unshift({ role: 'system', content: settings.system });
  const body: ChatRequest = { messages, stream: true, model: settings.model, group: settings.group, temperature: settings.temperature };
  if (settings.max_tokens > 0) body.max_tokens = settings.max_tokens;
  return body;
}

/** The error text of a non-200 reply (OpenAI error shape, or the raw text). */
export function errorTextOf(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string }; message?: string };
    return parsed.error?.message ?? parsed.message ?? `HTTP ${status}`;
  } catch {
    return body.trim() || `HTTP ${status}`;
  }
}

export interface StreamHandlers {
  onResult: (result: ChunkResult) => void;
  /** The reply failed or the stream broke: the text to append. */
  onError: (text: string) => void;
  /** The stream ended (after [DONE] or when the server closed it). */
  onEnd: () => void;
}

/** POST /pg/chat/completions with the user-id header, streaming each event to the handlers. */
export async function streamChat(body: ChatRequest, userId: number, handlers: StreamHandlers, signal?: AbortSignal): Promise<void> {
  let response: Response;
  try {
    response = await fetch('/pg/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'New-Api-User': String(userId) },
      credentials: 'same-origin',
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    return handlers.onError((err as Error).message);
  }
  if (!response.ok || !response.body) return handlers.onError(errorTextOf(response.status, await response.text()));
  const feed = createSseParser((data) => handlers.onResult(readChunk(data)));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      feed(value);
    }
    feed('\n\n');
    handlers.onEnd();
  } catch (err) {
    handlers.onError((err as Error).message);
  }
}
