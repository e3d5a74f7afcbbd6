/**
 * AIProxy's library answers -> OpenAI chat. An answer is `{success, answer, documents}` (or
 * `{success: false, errCode, message}`, with HTTP 200); the documents it drew on are appended to
 * the text as a numbered Markdown list, as the reference does. The API reports no token
 * counts: the answer's text goes back for local counting.
 */
import { chatCompletion, newId } from '../common/chunks';
import { arr, isRecord, num, obj, str } from '../common/json';
import type { ParsedResponse, UpstreamError } from '../types';
import { nowSeconds } from '../../../../shared/time';

/** The reference's references block: `\n\n参考文档：\n1. [title](url)\n…`, nothing without documents. */
export function documentsMarkdown(documents: unknown): string {
  const list = arr(documents).map(obj);
  if (list.length === 0) return '';
  return `\n\n参考文档：\n${list.map((d, i) => `${i + 1}. [${str(d.title) ?? ''}](${str(d.url) ?? ''})\n`).join('')}`;
}

/** `{errCode, message}` with a non-zero code (or `success: false`): the upstream refused. */
export function aiproxyErrorInBody(body: unknown, status: number): UpstreamError | undefined {
  if (!isRecord(body)) return undefined;
  const code = num(body.errCode);
  if (!code && body.success !== false) return undefined;
  return { status, message: str(body.message) || 'AI Proxy Library request failed', type: 'upstream_error', code: code || 'bad_response_body' };
}

export function openaiChatFromAiproxy(json: unknown, model: string): ParsedResponse {
  const error = aiproxyErrorInBody(json, 500);
  if (error) return { body: json, error };
  const answer = obj(json);
  const text = (str(answer.answer) ?? '') + documentsMarkdown(answer.documents);
  const body = chatCompletion({ meta: { id: newId('chatcmpl-'), created: nowSeconds(), model }, content: text, finishReason: 'stop' });
  return { body, text };
}
