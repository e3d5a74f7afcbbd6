/** Upstream error normalisation (docs/relay.md#upstream-errors), shared by every provider. */
import type { UpstreamError } from '../types';
import { isRecord, obj, parseJson, str } from './json';

/** The places non-OpenAI upstreams put their message, in the reference's order. */
function looseMessage(body: Record<string, unknown>): string | undefined {
  const candidates = [body.message, body.msg, body.err, body.error_msg, obj(body.header).message, obj(obj(body.response).error).message, body.error];
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate;
  }
  return undefined;
}

/**
 * Turns an error body into an `UpstreamError`: an `error` object with a message keeps its
 * type and code (OpenAI, Claude, Gemini shapes); other shapes give their message with
 * `upstream_error`/`bad_response_status_code`; anything else a generic message.
 */
export function errorFromBody(status: number, body: unknown): UpstreamError {
  if (isRecord(body)) {
    const error = body.error;
    if (isRecord(error) && typeof error.message === 'string' && error.message !== '') {
      const type = str(error.type) || str(error.status) || 'upstream_error';
      const code = typeof error.code === 'string' || typeof error.code === 'number' ? error.code : null;
      return { status, message: error.message, type, code };
    }
    const message = looseMessage(body);
    if (message) return { status, message, type: 'upstream_error', code: 'bad_response_status_code' };
  }
  return { status, message: `bad response status code ${status}`, type: 'upstream_error', code: 'bad_response_status_code' };
}

/** `Provider.parseError` for every provider: the body may be JSON or anything else. */
export function parseUpstreamError(status: number, text: string): UpstreamError {
  return errorFromBody(status, parseJson(text));
}

/**
 * A 200 body that is really an error (it has `error.type` or `error.message`): the reference
 * treats it as a failure with the given status.
 */
export function errorInBody(body: unknown, status: number): UpstreamError | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const error = body.error;
  if (!str(error.type) && !str(error.message)) return undefined;
  return errorFromBody(status, body);
}
