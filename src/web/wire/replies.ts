/**
 * What every console request carries and what every reply means, whichever client sends it
 * (`api.ts` over fetch for the pages, `http-client.ts` over axios for refine's provider):
 * - every request carries `New-Api-User` with the stored user's id (-1 when none);
 * - every /api reply is `{success, message, data}`; `success: false` becomes an `ApiError`
 *   (refine's `HttpError`) carrying the server's message, translated through the `server`
 *   namespace when known;
 * - 401 sends the visitor to `/login?expired=true`; 429, 500 and 405 get their texts (docs/console.md#replies-and-errors).
 */
import type { HttpError } from '@refinedev/core';
import type { Envelope } from '../../shared/api/envelope';
import type { ResourceDefinition } from '../../shared/resources/definition';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** An error the console shows: the message is ready for a toast. */
export class ApiError extends Error implements HttpError {
  statusCode: number;
  errors?: HttpError['errors'];
  constructor(message: string, statusCode: number, errors?: HttpError['errors']) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    if (errors) this.errors = errors;
  }
}

/** What sending a request and judging its reply need (the pages' `api`, downloads). */
export interface TransportDeps {
  /** Sends every request of both clients (`window.fetch` in the console). */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** The console's own origin: axios hands fetch a `Request`, which needs an absolute URL. */
  origin: string;
  /** The stored user's id for `New-Api-User`, or undefined. */
  userId: () => number | undefined;
  translate: Translate;
  /** Called once a reply says the session is gone (HTTP 401). */
  onUnauthorized: () => void;
}

/** refine's provider besides: the declared resources, for their paths and named endpoints. */
export interface WireDeps extends TransportDeps {
  resources: ResourceDefinition[];
}

/** The texts for transport failures (docs/console.md#replies-and-errors). */
const STATUS_TEXT: Record<number, string> = {
  401: 'errors.expired',
  405: 'errors.demoSite',
  429: 'errors.tooManyRequests',
  500: 'errors.serverError',
};

/** The headers every request carries. */
export function requestHeaders(deps: Pick<WireDeps, 'userId'>): Record<string, string> {
  return { 'New-Api-User': String(deps.userId() ?? -1) };
}

/** A reply's text as JSON; anything else (an empty 429, a proxy's HTML page) stays as it came. */
export function parseBody(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text; // `unwrap` judges it by the status alone
  }
}

/** Turns one reply into its data or an `ApiError` with a message ready to show. */
export function unwrap<T>(status: number, body: unknown, translate: Translate): T {
  const envelope = body && typeof body === 'object' && 'success' in body ? (body as Envelope<T> & { errors?: HttpError['errors'] }) : undefined;
  const serverText = (message: string) => translate(message, { ns: 'server', keySeparator: false, defaultValue: message });
  if (STATUS_TEXT[status]) throw new ApiError(translate(STATUS_TEXT[status]), status);
  if (envelope) {
    if (envelope.success) return envelope.data as T;
    throw new ApiError(serverText(envelope.message || translate('errors.unknown')), status, envelope.errors);
  }
  if (status >= 200 && status < 300) return body as T;
  throw new ApiError(translate('errors.withPrefix', { message: `HTTP ${status}` }), status);
}

/** One parsed reply judged: a 401 signs the visitor out first, then `unwrap`. */
export function judgeReply<T>(deps: Pick<WireDeps, 'translate' | 'onUnauthorized'>, status: number, body: unknown): T {
  if (status === 401) deps.onUnauthorized();
  return unwrap<T>(status, body, deps.translate);
}

/** No reply at all (offline, refused): the browser's reason behind the generic prefix. */
export function transportError(deps: Pick<WireDeps, 'translate'>, err: unknown): ApiError {
  return new ApiError(deps.translate('errors.withPrefix', { message: (err as Error)?.message ?? String(err) }), 0);
}
