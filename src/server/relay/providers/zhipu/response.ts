/**
 * Zhipu v3 answers: `{code, msg, success, data: {task_id, request_id, task_status, choices:
 * [{role, content}], usage}}`. The content comes JSON-quoted (`"\"Hello\""`); a refusal is
 * `success: false` with `code` and `msg`, also on HTTP 200.
 */
import { chatCompletion, newId } from '../common/chunks';
import { errorFromBody } from '../common/errors';
import { arr, isRecord, obj, parseJson, str } from '../common/json';
import { usageFromOpenAI } from '../common/usage';
import type { ParsedResponse, UpstreamError } from '../types';
import { nowSeconds } from '../../../../shared/time';

/** The answer's text: Zhipu sends it as a JSON string literal (quotes escaped inside), else bare. */
export function unquote(content: string): string {
  if (content.startsWith('"') && content.endsWith('"')) {
    const text = parseJson(content);
    if (typeof text === 'string') return text;
  }
  return content.replace(/^"+|"+$/g, '');
}

/** A `success: false` body (or Zhipu's error text): its message and code. */
export function zhipuError(status: number, body: unknown): UpstreamError {
  if (isRecord(body) && body.success === false && str(body.msg)) {
    return { status, message: str(body.msg)!, type: 'zhipu_error', code: typeof body.code === 'number' || typeof body.code === 'string' ? body.code : null };
  }
  return errorFromBody(status, body);
}

export function parseZhipuError(status: number, text: string): UpstreamError {
  return zhipuError(status, parseJson(text));
}

export function parseZhipuResponse(json: unknown, model: string): ParsedResponse {
  if (!isRecord(json) || json.success !== true) return { body: json, error: zhipuError(isRecord(json) && json.code === 401 ? 401 : 500, json) };
  const data = obj(json.data);
  const content = arr(data.choices)
    .map((choice) => unquote(str(obj(choice).content) ?? ''))
    .join('');
  const usage = usageFromOpenAI(data.usage);
  const meta = { id: str(data.task_id) || newId('chatcmpl-'), created: nowSeconds(), model };
  return { body: chatCompletion({ meta, content, finishReason: 'stop', usage }), usage, text: content };
}
