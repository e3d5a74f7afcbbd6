/**
 * Outbound calls to identity providers: one 5-second limit per call (the reference's),
 * JSON replies read defensively. Transport errors are replaced by the provider's own
 * "cannot connect" message: the underlying error text can name a URL carrying the code.
 */
import { AppError } from '../../errors';

export const PROVIDER_TIMEOUT_MS = 5000;

export interface ProviderReply {
  status: number;
  /** The parsed JSON body; undefined when the body is not JSON. */
  body: unknown;
}

export async function callProvider(url: string, init: RequestInit, unreachableMessage: string): Promise<ProviderReply> {
  let status: number;
  let text: string;
  try {
    const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
    status = res.status;
    text = await res.text();
  } catch {
    throw new AppError(unreachableMessage);
  }
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    return { status, body: undefined };
  }
}

/** A field of a JSON object as text: strings as they are, finite numbers printed, else ''. */
export function textField(body: unknown, key: string): string {
  if (!body || typeof body !== 'object') return '';
  const value = (body as Record<string, unknown>)[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** A boolean field of a JSON object; anything else is false. */
export function boolField(body: unknown, key: string): boolean {
  return !!body && typeof body === 'object' && (body as Record<string, unknown>)[key] === true;
}
