/**
 * Spark's answer frames (one per WebSocket message, presented by the relay as SSE events):
 * `{header: {code, message, sid, status}, payload: {choices: {status, seq, text: [{content,
 * role}]}, usage: {text: {prompt_tokens, completion_tokens, total_tokens}}}}`; status 2 is the
 * last frame and carries the usage; a non-zero `header.code` is an error (and the last frame).
 * A caller that did not stream gets the frames joined into one answer.
 */
import { chatCompletion, newId } from '../common/chunks';
import { errorFromBody } from '../common/errors';
import { type JsonObject, arr, isRecord, num, obj, parseJson, str } from '../common/json';
import type { ParsedResponse, UpstreamError, Usage } from '../types';
import { nowSeconds } from '../../../../shared/time';

/** Codes of refused content or parameters, of exhausted licences and limits, of a refused key. */
const REQUEST_CODES = new Set([10013, 10014, 10019, 10907, 10160, 10161, 10162, 10163]);
const LIMIT_CODES = new Set([11201, 11202, 11203]);
const KEY_CODES = new Set([11200, 10313]);

export function xunfeiErrorOf(frame: unknown): UpstreamError | undefined {
  const header = obj(obj(frame).header);
  const code = num(header.code);
  if (!code) return undefined;
  const status = REQUEST_CODES.has(code) ? 400 : LIMIT_CODES.has(code) ? 429 : KEY_CODES.has(code) ? 401 : 500;
  return { status, message: str(header.message) ?? `xunfei error ${code}`, type: 'xunfei_error', code };
}

export function frameText(frame: unknown): string {
  return arr(obj(obj(obj(frame).payload).choices).text)
    .map((item) => str(obj(item).content) ?? '')
    .join('');
}

export function frameUsage(frame: unknown): Usage | undefined {
  const usage = obj(obj(obj(frame).payload).usage).text;
  if (!isRecord(usage)) return undefined;
  const promptTokens = num(usage.prompt_tokens);
  const completionTokens = num(usage.completion_tokens);
  return promptTokens || completionTokens ? { promptTokens, completionTokens } : undefined;
}

export function isLastFrame(frame: unknown): boolean {
  return num(obj(obj(frame).header).status) === 2 || num(obj(obj(obj(frame).payload).choices).status) === 2;
}

/** The frames of a whole answer (its SSE events' data). */
function frames(text: string): JsonObject[] {
  const out: JsonObject[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    const frame = data ? parseJson(data) : undefined;
    if (isRecord(frame)) out.push(frame);
  }
  return out;
}

export function parseXunfeiResponse(raw: unknown, model: string): ParsedResponse {
  const all = typeof raw === 'string' ? frames(raw) : isRecord(raw) ? [raw] : [];
  let content = '';
  let usage: Usage | undefined;
  let sid = '';
  for (const frame of all) {
    const error = xunfeiErrorOf(frame);
    if (error) return { body: frame, error };
    content += frameText(frame);
    usage = frameUsage(frame) ?? usage;
    sid ||= str(obj(frame.header).sid) ?? '';
  }
  if (all.length === 0) return { body: raw, error: { status: 500, message: 'the Xunfei upstream closed without an answer', type: 'upstream_error', code: 'bad_response_body' } };
  const meta = { id: sid || newId('chatcmpl-'), created: nowSeconds(), model };
  return { body: chatCompletion({ meta, content, finishReason: 'stop', usage }), usage, text: content };
}

/** A refused handshake (HTTP 401/403 with `{message}`) or any other HTTP error. */
export function parseXunfeiError(status: number, text: string): UpstreamError {
  return errorFromBody(status, parseJson(text));
}
