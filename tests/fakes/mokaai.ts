/**
 * A fake MokaAI M3E embeddings service on 127.0.0.1: `POST /embeddings` in OpenAI's embeddings
 * shape (floats, or little-endian float32 base64 when `encoding_format` is base64) with
 * `usage.prompt_tokens`; Bearer auth; errors in OpenAI's `{error: {message, type, code}}`.
 */
import { type RecordedRequest, sendJson, startFakeHttpServer } from './http-fake';

export interface FakeMokaAI {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The vector the fake gives the text at `index` (so tests can check it comes back intact). */
export function m3eVector(text: string, index: number): number[] {
  return [index + 0.25, text.length, -0.5];
}

export async function startFakeMokaAI(): Promise<FakeMokaAI> {
  const server = await startFakeHttpServer((_req, res) => sendJson(res, 404, { error: { message: 'not found', type: 'invalid_request_error', code: 'not_found' } }));
  server.route('POST', '/embeddings', (req, res) => {
    if (req.headers.authorization !== 'Bearer moka-fake-good') {
      return sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    const body = (req.json ?? {}) as Record<string, unknown>;
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((i) => typeof i === 'string')) {
      return sendJson(res, 400, { error: { message: 'input must be a string or a list of strings', type: 'invalid_request_error', code: 'invalid_input' } });
    }
    const base64 = body.encoding_format === 'base64';
    const data = (inputs as string[]).map((text, index) => {
      const vector = m3eVector(text, index);
      return { object: 'embedding', index, embedding: base64 ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector };
    });
    const tokens = (inputs as string[]).reduce((n, t) => n + t.length, 0);
    sendJson(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  });
  return { url: server.url, requests: server.requests, close: () => server.close() };
}
