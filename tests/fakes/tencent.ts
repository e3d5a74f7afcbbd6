/**
 * A fake Tencent Hunyuan (Tencent Cloud API 3.0) on 127.0.0.1 speaking the real wire format:
 * - `POST /` with `X-TC-Action: ChatCompletions`, `X-TC-Version: 2023-09-01`, `X-TC-Timestamp`
 *   and a TC3-HMAC-SHA256 `Authorization`, whose signature is recomputed here from the
 *   canonical request (method, `/`, content-type, host, x-tc-action, SHA-256 of the body);
 * - answers `{Response: {Id, Created, Choices: [{Message, FinishReason}], Usage, RequestId}}`,
 *   streamed (`"Stream": true`) as SSE `data:` events of `{Choices: [{Delta, FinishReason}],
 *   Usage}` with the usage so far;
 * - errors `{Response: {Error: {Code, Message}, RequestId}}` on HTTP 200, also for a stream.
 */
import { createHash, createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { firstByteDelay, type RecordedRequest, sendJson, startFakeHttpServer, scriptedFake, type ScriptedFake } from './http-fake';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, ScriptQueue, sleep } from './script';

export const TENCENT_SECRET_ID = 'AKIDfakeSecretId0001';
export const TENCENT_SECRET_KEY = 'fakeSecretKey0001';
export const TENCENT_KEY = `1300000001|${TENCENT_SECRET_ID}|${TENCENT_SECRET_KEY}`;

export type FakeTencent = ScriptedFake;

function tencentError(res: ServerResponse, code: string, message: string): void {
  sendJson(res, 200, { Response: { Error: { Code: code, Message: message }, RequestId: 'fake-request-id' } });
}

/** Tencent's own check of a TC3 signature: undefined when valid, else the error code and message. */
function signatureProblem(request: RecordedRequest): [string, string] | undefined {
  const h = request.headers;
  const match = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(String(h.authorization ?? ''));
  if (!match) return ['AuthFailure.InvalidAuthorization', 'Authorization header is malformed.'];
  const [, secretId, date, service, signedHeaders, signature] = match;
  if (secretId !== TENCENT_SECRET_ID) return ['AuthFailure.SecretIdNotFound', 'The SecretId is not found, please ensure that your SecretId is correct.'];
  const timestamp = Number(h['x-tc-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(timestamp - Date.now() / 1000) > 300) return ['AuthFailure.SignatureExpire', 'Signature expired.'];
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date || service !== 'hunyuan')
    return ['AuthFailure.SignatureFailure', 'The provided credentials could not be validated because of exceeding request size limit, please use new signature method `TC3-HMAC-SHA256`.'];
  const names = signedHeaders!.split(';');
  if (!names.includes('content-type') || !names.includes('host')) return ['AuthFailure.SignatureFailure', 'Content-Type and Host must be signed.'];
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(h[name] ?? '')
          .trim()
          .toLowerCase()}\n`,
    )
    .join('');
  const bodyHash = createHash('sha256').update(request.body).digest('hex');
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${bodyHash}`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${createHash('sha256').update(canonical).digest('hex')}`;
  let key: Buffer = createHmac('sha256', `TC3${TENCENT_SECRET_KEY}`).update(date!).digest();
  for (const part of [service!, 'tc3_request']) key = createHmac('sha256', key).update(part).digest();
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  return expected === signature ? undefined : ['AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.'];
}

export async function startFakeTencent(): Promise<FakeTencent> {
  const queue = new ScriptQueue<RecordedRequest>();
  const server = await startFakeHttpServer((_request, res) => tencentError(res, 'InvalidAction', 'The action requested was invalid.'));
  const fake = scriptedFake(server, queue, {});

  server.route('POST', '/', async (request, res) => {
    if (request.headers['x-tc-action'] !== 'ChatCompletions') return tencentError(res, 'InvalidAction', `The action requested \`${String(request.headers['x-tc-action'])}\` was invalid.`);
    if (request.headers['x-tc-version'] !== '2023-09-01') return tencentError(res, 'NoSuchVersion', 'The requested version does not exist.');
    const problem = signatureProblem(request);
    if (problem) return tencentError(res, ...problem);
    const body = (request.json ?? {}) as { Model?: string; Messages?: { Role: string; Content: string }[]; Stream?: boolean };
    if (!body.Model) return tencentError(res, 'MissingParameter', 'The request is missing a required parameter `Model`.');
    if (!Array.isArray(body.Messages) || body.Messages.length === 0 || body.Messages.at(-1)!.Role !== 'user') return tencentError(res, 'InvalidParameter', 'Messages 中最后一个 Role 必须是 user');
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (reply.error) return tencentError(res, String(reply.error.code ?? 'FailedOperation'), reply.error.message);
    const text = reply.text ?? DEFAULT_TEXT;
    const parts = pieces(text);
    const prompt = reply.usage?.prompt ?? DEFAULT_PROMPT_TOKENS;
    const completion = reply.usage?.completion ?? parts.length;
    const usageOf = (done: number) => ({ PromptTokens: prompt, CompletionTokens: done, TotalTokens: prompt + done });
    const id = `fake-${Date.now()}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.Stream !== true) {
      return sendJson(res, 200, {
        Response: {
          Id: id,
          Created: created,
          Note: '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记',
          Choices: [{ FinishReason: 'stop', Message: { Role: 'assistant', Content: text } }],
          Usage: usageOf(completion),
          RequestId: id,
        },
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [index, piece] of parts.entries()) {
      if (reply.streamErrorAfter !== undefined && index >= reply.streamErrorAfter) {
        res.end(`data: ${JSON.stringify({ Error: { Code: 'InternalError', Message: '内部错误' }, Id: id })}\n\n`);
        return;
      }
      if (reply.delayMs && index > 0) await sleep(reply.delayMs);
      const last = index === parts.length - 1;
      const event = {
        Id: id,
        Created: created,
        Note: '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记',
        Choices: [{ Delta: { Role: 'assistant', Content: piece }, FinishReason: last ? 'stop' : '' }],
        Usage: usageOf(last ? completion : Math.min(completion, index + 1)),
      };
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    res.end();
  });

  return fake;
}
