/**
 * Bedrock's errors: HTTP answers carry `{message}` (`Message` from some front ends), the kind
 * in the `x-amzn-ErrorType` header; stream exceptions come as events (event-stream.ts).
 */
import { errorFromBody } from '../common/errors';
import { isRecord, parseJson, str } from '../common/json';
import type { UpstreamError } from '../types';

export function bedrockError(status: number, text: string): UpstreamError {
  const body = parseJson(text);
  if (isRecord(body) && !str(body.message) && str(body.Message)) return errorFromBody(status, { message: body.Message });
  return errorFromBody(status, body);
}
