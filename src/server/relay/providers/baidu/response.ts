/**
 * ERNIE answers: `{id, object, created, result, is_truncated, need_clear_history, usage}`;
 * embeddings `{data: [{object, embedding, index}], usage}`. Errors come as
 * `{error_code, error_msg}`, usually on HTTP 200: the code decides what they mean here.
 */
import { chatCompletion, newId } from '../common/chunks';
import { errorFromBody } from '../common/errors';
import { arr, isRecord, num, obj, parseJson, str } from '../common/json';
import type { ParsedResponse, UpstreamError, Usage } from '../types';
import { nowSeconds } from '../../../../shared/time';

/** Error codes of a refused or expired access token, of a rate limit, of a bad request. */
const TOKEN_CODES = new Set([110, 111, 100, 6, 13, 14]);
const RATE_CODES = new Set([4, 17, 18, 19, 336501, 336502]);
const REQUEST_CODES = new Set([336003, 336006, 336007]);

function statusOf(code: number, httpStatus: number): number {
  if (TOKEN_CODES.has(code)) return 401;
  if (RATE_CODES.has(code)) return 429;
  if (REQUEST_CODES.has(code)) return 400;
  return httpStatus >= 400 ? httpStatus : 500;
}

/** `{error_code, error_msg}` as an upstream error, or undefined when the body is none. */
export function baiduErrorOf(body: unknown, httpStatus = 200): UpstreamError | undefined {
  if (!isRecord(body) || body.error_code === undefined || !str(body.error_msg)) return undefined;
  const code = num(body.error_code);
  return { status: statusOf(code, httpStatus), message: str(body.error_msg)!, type: 'baidu_error', code };
}

export function parseBaiduError(status: number, text: string): UpstreamError {
  const body = parseJson(text);
  return baiduErrorOf(body, status) ?? errorFromBody(status, body);
}

/** ERNIE's usage; the completion is what the total adds to the prompt. */
export function baiduUsage(raw: unknown): Usage | undefined {
  const usage = obj(raw);
  const promptTokens = num(usage.prompt_tokens);
  const total = num(usage.total_tokens);
  const completionTokens = total ? Math.max(0, total - promptTokens) : num(usage.completion_tokens);
  return promptTokens || completionTokens ? { promptTokens, completionTokens } : undefined;
}

export function parseBaiduChat(json: unknown, model: string): ParsedResponse {
  const error = baiduErrorOf(json);
  if (error) return { body: json, error };
  const answer = obj(json);
  const content = str(answer.result) ?? '';
  const usage = baiduUsage(answer.usage);
  const meta = { id: str(answer.id) || newId('chatcmpl-'), created: num(answer.created) || nowSeconds(), model };
  return { body: chatCompletion({ meta, content, finishReason: 'stop', usage }), usage, text: content };
}

export function parseBaiduEmbeddings(json: unknown, model: string): ParsedResponse {
  const error = baiduErrorOf(json);
  if (error) return { body: json, error };
  const answer = obj(json);
  const usage = baiduUsage(answer.usage);
  const promptTokens = usage?.promptTokens ?? 0;
  const body = {
    object: 'list',
    data: arr(answer.data).map((item, index) => ({ object: 'embedding', index: num(obj(item).index) || index, embedding: arr(obj(item).embedding) })),
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
  return { body, usage: usage && { promptTokens, completionTokens: 0 } };
}
