/**
 * Relay errors and their reply shapes (docs/relay.md#error-shapes): OpenAI's
 * `{error:{message,type,param,code}}` everywhere, Claude's `{type:"error", error:{type,message}}`
 * on /v1/messages, Google's `{error:{code,message,status}}` on the Gemini-native routes. Every
 * message gets ` (request id: <id>)`; messages that came from an upstream or the network are masked when they could reveal an upstream address.
 */
import type { UpstreamError } from './providers/types';

/** What the retry loop needs to know about a failure besides its status. */
export interface RelayErrorOptions {
  type?: string;
  code?: string | number | null;
  param?: string;
  /**
   * A local error (bad request, quota, price, our own refusal): never retried, never counted
   * against a channel, never a reason to disable one.
   */
  local?: boolean;
  /** The text came from an upstream or the network: masked before it reaches the client. */
  upstream?: boolean;
  /** Seconds the upstream asked us to wait (Retry-After), passed on to the client. */
  retryAfter?: number;
  /** The text always names an upstream address (network errors): the client always gets the mask. */
  alwaysMask?: boolean;
}

export class RelayError extends Error {
  readonly type: string;
  readonly code: string | number | null;
  readonly param: string;
  readonly local: boolean;
  readonly upstream: boolean;
  readonly retryAfter: number | undefined;
  readonly alwaysMask: boolean;

  constructor(
    readonly status: number,
    message: string,
    options: RelayErrorOptions = {},
  ) {
    super(message);
    this.type = options.type ?? 'new_api_error';
    this.code = options.code ?? '';
    this.param = options.param ?? '';
    this.local = options.local ?? true;
    this.upstream = options.upstream ?? false;
    this.retryAfter = options.retryAfter;
    this.alwaysMask = options.alwaysMask ?? false;
  }

  /** The same failure with another status (status_code_mapping). */
  withStatus(status: number): RelayError {
    return new RelayError(status, this.message, {
      type: this.type,
      code: this.code,
      param: this.param,
      local: this.local,
      upstream: this.upstream,
      retryAfter: this.retryAfter,
      alwaysMask: this.alwaysMask,
    });
  }
}

/** A refusal of ours (auth, distributor, validation, quota): local, never retried. */
export function refuse(status: number, message: string, code: string | number = '', type = 'new_api_error'): RelayError {
  return new RelayError(status, message, { code, type, local: true });
}

/** An upstream answer that was not a success (docs/relay.md#upstream-errors): retryable by the loop's rules. */
export function fromUpstream(error: UpstreamError, retryAfter?: number): RelayError {
  return new RelayError(error.status, error.message, {
    type: error.type || 'upstream_error',
    code: error.code ?? 'bad_response_status_code',
    param: String(error.status),
    local: false,
    upstream: true,
    retryAfter,
  });
}

export const UPSTREAM_ADDRESS_MASK = '请求上游地址失败';

/**
 * The network failed (DNS, connect, reset, timeout) before an answer: retryable. Its text
 * names the upstream's address (`connect ECONNREFUSED 10.0.0.5:443`), so the client always
 * gets the mask; the original stays in `message` for the server log and the admin's channel test.
 */
export function transportError(message: string): RelayError {
  return new RelayError(500, message, { type: 'new_api_error', code: 'do_request_failed', local: false, upstream: true, alwaysMask: true });
}

/**
 * The client left before anything was delivered: a local failure (no retry, not the
 * channel's fault) whose reservation is given back. 499 as nginx logs it; nobody reads it.
 */
export function clientGoneError(): RelayError {
  return new RelayError(499, 'client closed request', { code: 'client_gone', local: true });
}

/** Hides texts that could carry an upstream URL or address (reference: post, dial, http). */
export function maskMessage(message: string): string {
  return /post|dial|http/i.test(message) ? UPSTREAM_ADDRESS_MASK : message;
}

function clientMessage(error: RelayError, requestId: string): string {
  const text = error.alwaysMask ? UPSTREAM_ADDRESS_MASK : error.upstream ? maskMessage(error.message) : error.message;
  return requestId ? `${text} (request id: ${requestId})` : text;
}

export function openaiErrorBody(error: RelayError, requestId: string): { error: { message: string; type: string; param: string; code: string | number | null } } {
  return { error: { message: clientMessage(error, requestId), type: error.type, param: error.param, code: error.code } };
}

/**
 * Claude's shape. A request the relay itself refuses as malformed (a local 400) carries
 * Anthropic's own type for it, `invalid_request_error`, which Claude clients branch on; other
 * local refusals keep the reference's `new_api_error`, upstream errors their own type.
 */
export function claudeErrorBody(error: RelayError, requestId: string): { type: 'error'; error: { type: string; message: string } } {
  const type = error.local && error.status === 400 && error.type === 'new_api_error' ? 'invalid_request_error' : error.type;
  return { type: 'error', error: { type, message: clientMessage(error, requestId) } };
}

/** Google's status names (google.rpc.Code) of the HTTP statuses the relay answers. */
const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Google's error shape, which the Gemini SDKs and CLI read (`status` names the kind of failure). */
export function geminiErrorBody(error: RelayError, requestId: string): { error: { code: number; message: string; status: string } } {
  const status = GOOGLE_STATUS[error.status] ?? (error.status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
  return { error: { code: error.status, message: clientMessage(error, requestId), status } };
}

/** Anything that is not a RelayError: an internal failure whose text stays in the server log. */
export function internalError(): RelayError {
  return new RelayError(500, '服务器内部错误，请联系管理员', { type: 'new_api_error', code: 'internal_error' });
}
