/**
 * Hunyuan's answers: `{Response: {Id, Created, Choices: [{Message: {Role, Content},
 * FinishReason}], Usage: {PromptTokens, CompletionTokens, TotalTokens}, RequestId}}`; errors
 * `{Response: {Error: {Code, Message}, RequestId}}`, on HTTP 200 as well.
 */
import { chatCompletion, newId } from '../common/chunks';
import { errorFromBody } from '../common/errors';
import { arr, isRecord, num, obj, parseJson, str } from '../common/json';
import type { ParsedResponse, UpstreamError, Usage } from '../types';
import { nowSeconds } from '../../../../shared/time';

/** Error codes that mean the key (signature, secret id) is refused, or a limit reached. */
function statusOf(code: string): number {
  if (code.startsWith('AuthFailure')) return 401;
  if (code.startsWith('RequestLimitExceeded') || code.startsWith('LimitExceeded')) return 429;
  if (code.startsWith('InvalidParameter') || code.startsWith('MissingParameter') || code.startsWith('UnsupportedOperation')) return 400;
  if (code.startsWith('ResourceInsufficient') || code.startsWith('FailedOperation.EngineRequestTimeout')) return 503;
  return 500;
}

/** `{Response: {Error}}` (or a bare `{Error}` of a stream event) as an upstream error. */
export function tencentErrorOf(body: unknown): UpstreamError | undefined {
  const inner = isRecord(body) && isRecord(body.Response) ? body.Response : body;
  if (!isRecord(inner) || !isRecord(inner.Error)) return undefined;
  const code = str(inner.Error.Code) ?? String(inner.Error.Code ?? '');
  return { status: statusOf(code), message: str(inner.Error.Message) ?? code, type: 'tencent_error', code: code || null };
}

export function parseTencentError(status: number, text: string): UpstreamError {
  const body = parseJson(text);
  const error = tencentErrorOf(body);
  return error ? { ...error, status: status >= 400 ? status : error.status } : errorFromBody(status, body);
}

export function tencentUsage(raw: unknown): Usage | undefined {
  const usage = obj(raw);
  const promptTokens = num(usage.PromptTokens);
  const completionTokens = num(usage.CompletionTokens);
  return promptTokens || completionTokens ? { promptTokens, completionTokens } : undefined;
}

export function parseTencentResponse(json: unknown, model: string): ParsedResponse {
  const error = tencentErrorOf(json);
  if (error) return { body: json, error };
  const answer = obj(obj(json).Response);
  const choice = obj(arr(answer.Choices)[0]);
  const content = str(obj(choice.Message).Content) ?? '';
  const usage = tencentUsage(answer.Usage);
  const meta = { id: str(answer.Id) || newId('chatcmpl-'), created: num(answer.Created) || nowSeconds(), model };
  return { body: chatCompletion({ meta, content, finishReason: str(choice.FinishReason) || 'stop', usage }), usage, text: content };
}
