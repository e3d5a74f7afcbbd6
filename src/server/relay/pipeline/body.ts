/**
 * Request bodies of the relay. The scope's parser only keeps the bytes (so a malformed body
 * is refused after token authentication, in the endpoint's own error shape); here they are
 * read once: JSON into an object, multipart audio uploads into form fields plus the file.
 */
import type { RelayRequest } from './exchange';
import { refuse } from '../errors';
import { audioSeconds } from '../billing/audio-duration';

/** What the relay scope's content-type parser stores as `request.body`. */
export interface RawBody {
  raw: Buffer;
  contentType: string;
}

export function isRawBody(value: unknown): value is RawBody {
  return !!value && typeof value === 'object' && Buffer.isBuffer((value as RawBody).raw);
}

export interface ParsedBody {
  body: Record<string, unknown>;
  raw: Buffer | undefined;
  /** Seconds of an uploaded audio file. */
  audioSeconds?: number;
}

function invalidRequest(detail: string) {
  return refuse(400, `Invalid request, 无效的请求, ${detail}`, 'invalid_request');
}

export function parseJsonBody(request: RelayRequest): ParsedBody {
  const stored = request.body;
  if (!isRawBody(stored) || stored.raw.length === 0) throw invalidRequest('unexpected end of JSON input');
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored.raw.toString('utf8'));
  } catch (err) {
    throw invalidRequest(err instanceof Error ? err.message : 'invalid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequest('the body must be a JSON object');
  return { body: parsed as Record<string, unknown>, raw: stored.raw };
}

/** multipart/form-data: every field as text, the upload as a Blob in `file`. */
export async function parseMultipartBody(request: RelayRequest): Promise<ParsedBody> {
  const stored = request.body;
  if (!isRawBody(stored) || !stored.contentType.startsWith('multipart/form-data')) throw invalidRequest('multipart/form-data expected');
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(stored.raw), { headers: { 'content-type': stored.contentType } }).formData();
  } catch (err) {
    throw invalidRequest(err instanceof Error ? err.message : 'bad multipart body');
  }
  const body: Record<string, unknown> = {};
  let seconds: number | undefined;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      // Repeated fields (timestamp_granularities[]) stay a list.
      const prev = body[name];
      body[name] = prev === undefined ? value : Array.isArray(prev) ? [...(prev as string[]), value] : [prev, value];
    } else if (name === 'file') {
      body.file = value;
      seconds = audioSeconds(new Uint8Array(await value.arrayBuffer()));
    }
  }
  return { body, raw: undefined, ...(seconds !== undefined ? { audioSeconds: seconds } : {}) };
}
