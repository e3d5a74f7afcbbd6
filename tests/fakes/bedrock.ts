/**
 * A fake AWS Bedrock runtime on 127.0.0.1 speaking the real wire format:
 * `POST /model/{modelId}/invoke` and `/invoke-with-response-stream` (Claude's Messages body with
 * `anthropic_version: bedrock-2023-05-31`, no `model` nor `stream`; the stream is an AWS event
 * stream of `chunk` events whose base64 `bytes` hold Claude's events), `/converse` and
 * `/converse-stream` (the Converse API: messageStart, contentBlockStart/Delta/Stop,
 * messageStop, metadata with usage). Requests must carry a SigV4 Authorization header, checked
 * by recomputing it with `@smithy/signature-v4` for the keys the fake knows (or a Bedrock API
 * key as Bearer). Errors are `{message}` with `x-amzn-ErrorType`; stream failures are
 * exception messages. Event-stream messages are encoded by `@smithy/core`'s codec and written
 * in two pieces each, so the relay's decoder must join messages split across reads.
 */
import type { ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, Hash, toUtf8 } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import { answerClaude, claudeAnswer, claudeStreamEvents } from './claude';
import { firstByteDelay, type RecordedRequest, sendJson, startFakeHttpServer, scriptedFake } from './http-fake';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, type ScriptEntry, ScriptQueue, type ScriptedReply, sleep } from './script';

export interface FakeBedrock {
  url: string;
  /** Access key id -> secret key. */
  credentials: Map<string, string>;
  /** Bedrock API keys (Bearer). */
  apiKeys: Set<string>;
  /** The region the signatures must name. */
  region: string;
  requests: RecordedRequest[];
  script(...replies: ScriptEntry<RecordedRequest>[]): void;
  defaultReply: ScriptedReply;
  close(): Promise<void>;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const CREDENTIAL = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

export function bedrockError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { message }, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
}

const ERROR_TYPES: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** The signature the request should carry, computed as AWS does (same library as the SDK). */
async function expectedSignature(request: RecordedRequest, host: string, match: RegExpExecArray, secret: string): Promise<string> {
  const [, accessKeyId, , region, service, signedHeaders] = match;
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) headers[name] = String(request.headers[name] ?? '');
  const signer = new SignatureV4({ service, region, credentials: { accessKeyId, secretAccessKey: secret }, sha256: Hash.bind(null, 'sha256') });
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const date = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  const [hostname, port] = host.split(':');
  const signed = await signer.sign(
    { method: request.method, protocol: 'http:', hostname, port: port ? Number(port) : undefined, path: request.path, query: Object.fromEntries(request.query), headers, body: request.body },
    { signingDate: date },
  );
  return /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))![1];
}

/** Writes AWS event-stream messages, each in two pieces (a message split across reads). */
async function writeEventStream(res: ServerResponse, messages: Uint8Array[], reply: ScriptedReply, exception?: Uint8Array): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'req-fake' });
  res.flushHeaders();
  let sent = 0;
  for (const message of messages) {
    if (reply.resetAfter !== undefined && sent >= reply.resetAfter) {
      await sleep(20);
      res.destroy();
      return;
    }
    if (reply.streamErrorAfter !== undefined && sent >= reply.streamErrorAfter && exception) {
      res.end(exception);
      return;
    }
    if (reply.delayMs && sent > 0) await sleep(reply.delayMs);
    if (res.destroyed) return;
    const half = Math.floor(message.length / 2);
    res.write(message.subarray(0, half));
    await new Promise((resolve) => setImmediate(resolve));
    res.write(message.subarray(half));
    sent += 1;
  }
  res.end();
}

function eventMessage(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    // Bedrock pads events with a `p` field of varying length (hides the size of the text).
    body: fromUtf8(JSON.stringify({ ...(payload as Record<string, unknown>), p: 'abcdefghij'.slice(0, (JSON.stringify(payload).length % 9) + 1) })),
  });
}

function exceptionMessage(type: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/** InvokeModel's stream: each Claude event base64 in a `chunk`; the last carries Bedrock's invocation metrics. */
function claudeChunks(reply: ScriptedReply, modelId: string): Uint8Array[] {
  const events = claudeStreamEvents(claudeAnswer(reply, modelId, 'msg_bdrk_fake'), reply.noUsage === true);
  return events.map((event, i) => {
    const data = { ...(event.data as Record<string, unknown>) };
    if (i === events.length - 1 && !reply.noUsage) {
      const usage = reply.usage ?? {};
      data['amazon-bedrock-invocationMetrics'] = { inputTokenCount: usage.prompt ?? DEFAULT_PROMPT_TOKENS, outputTokenCount: usage.completion ?? 1, invocationLatency: 120, firstByteLatency: 40 };
    }
    return eventMessage('chunk', { bytes: Buffer.from(JSON.stringify(data)).toString('base64') });
  });
}

interface ConverseAnswer {
  text: string[];
  reasoning?: string;
  tools: { toolUseId: string; name: string; input: Record<string, unknown> }[];
  stopReason: string;
  usage: Record<string, number>;
}

function converseAnswer(reply: ScriptedReply): ConverseAnswer {
  const text = pieces(reply.text ?? (reply.toolCalls ? '' : DEFAULT_TEXT));
  const tools = (reply.toolCalls ?? []).map((call, i) => ({ toolUseId: call.id ?? `tooluse_fake${i}`, name: call.name, input: call.arguments }));
  const u = reply.usage ?? {};
  const input = u.prompt ?? DEFAULT_PROMPT_TOKENS;
  const output = u.completion ?? Math.max(1, text.length + tools.length);
  const usage: Record<string, number> = { inputTokens: input, outputTokens: output, totalTokens: input + output + (u.cacheRead ?? 0) };
  if (u.cacheRead) usage.cacheReadInputTokens = u.cacheRead;
  return { text, reasoning: reply.reasoning, tools, stopReason: reply.finishReason ?? (tools.length > 0 ? 'tool_use' : 'end_turn'), usage };
}

function converseBody(a: ConverseAnswer, noUsage: boolean): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (a.reasoning) content.push({ reasoningContent: { reasoningText: { text: a.reasoning, signature: 'sig-fake' } } });
  if (a.text.length > 0) content.push({ text: a.text.join('') });
  for (const tool of a.tools) content.push({ toolUse: tool });
  return { output: { message: { role: 'assistant', content } }, stopReason: a.stopReason, ...(noUsage ? {} : { usage: a.usage }), metrics: { latencyMs: 120 } };
}

function converseStream(a: ConverseAnswer, noUsage: boolean): Uint8Array[] {
  const out = [eventMessage('messageStart', { role: 'assistant' })];
  let index = 0;
  if (a.reasoning) {
    for (const piece of pieces(a.reasoning)) out.push(eventMessage('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { text: piece } } }));
    out.push(eventMessage('contentBlockStop', { contentBlockIndex: index++ }));
  }
  if (a.text.length > 0) {
    for (const piece of a.text) out.push(eventMessage('contentBlockDelta', { contentBlockIndex: index, delta: { text: piece } }));
    out.push(eventMessage('contentBlockStop', { contentBlockIndex: index++ }));
  }
  for (const tool of a.tools) {
    const json = JSON.stringify(tool.input);
    const half = Math.ceil(json.length / 2);
    out.push(eventMessage('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: tool.toolUseId, name: tool.name } } }));
    out.push(eventMessage('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input: json.slice(0, half) } } }));
    out.push(eventMessage('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input: json.slice(half) } } }));
    out.push(eventMessage('contentBlockStop', { contentBlockIndex: index++ }));
  }
  out.push(eventMessage('messageStop', { stopReason: a.stopReason }));
  if (!noUsage) out.push(eventMessage('metadata', { usage: a.usage, metrics: { latencyMs: 120 } }));
  return out;
}

export async function startFakeBedrock(options: { region?: string; credentials?: Record<string, string>; apiKeys?: string[] } = {}): Promise<FakeBedrock> {
  const queue = new ScriptQueue<RecordedRequest>();
  const server = await startFakeHttpServer((request, res) => bedrockError(res, 404, 'UnknownOperationException', `Unknown operation ${request.method} ${request.path}`));

  const fake: FakeBedrock = scriptedFake(server, queue, {
    credentials: new Map(Object.entries(options.credentials ?? { AKIAFAKEGOOD: 'fake-secret-key' })),
    apiKeys: new Set(options.apiKeys ?? ['bedrock-api-key-fake']),
    region: options.region ?? 'us-east-1',
  });

  /** SigV4 (or a Bedrock API key) as AWS checks it; true when the request may go on. */
  async function admitted(request: RecordedRequest, res: ServerResponse): Promise<boolean> {
    const auth = String(request.headers.authorization ?? '');
    if (auth.startsWith('Bearer ')) {
      if (fake.apiKeys.has(auth.slice('Bearer '.length))) return true;
      bedrockError(res, 403, 'UnrecognizedClientException', 'Invalid API Key format: Must start with pre-defined prefix');
      return false;
    }
    const match = CREDENTIAL.exec(auth);
    if (!match) {
      bedrockError(res, 403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
      return false;
    }
    const secret = fake.credentials.get(match[1]);
    if (!secret) {
      bedrockError(res, 403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
      return false;
    }
    if (match[3] !== fake.region || match[4] !== 'bedrock' || !match[5].split(';').includes('host')) {
      bedrockError(res, 403, 'InvalidSignatureException', `Credential should be scoped to a valid region and service (${match[3]}/${match[4]}).`);
      return false;
    }
    if (match[6] !== (await expectedSignature(request, String(request.headers.host ?? ''), match, secret))) {
      bedrockError(
        res,
        403,
        'InvalidSignatureException',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
      );
      return false;
    }
    return true;
  }

  /** Auth, then the scripted reply (its delay and failures); undefined when answered. */
  async function begin(request: RecordedRequest, res: ServerResponse): Promise<ScriptedReply | undefined> {
    if (!(await admitted(request, res))) return undefined;
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (reply.error) {
      bedrockError(res, reply.error.status, reply.error.type ?? ERROR_TYPES[reply.error.status] ?? 'InternalServerException', reply.error.message);
      return undefined;
    }
    return reply;
  }

  server.route('POST', /\/model\/([^/]+)\/(invoke|invoke-with-response-stream)/, async (request, res) => {
    const [encodedId, action] = request.params;
    const modelId = decodeURIComponent(encodedId);
    const body = request.json as Record<string, unknown> | undefined;
    const reply = await begin(request, res);
    if (!reply) return;
    if (!modelId.includes('anthropic.claude')) return bedrockError(res, 400, 'ValidationException', `The provided model identifier is invalid: ${modelId}`);
    if (!body || body.anthropic_version !== 'bedrock-2023-05-31')
      return bedrockError(res, 400, 'ValidationException', 'Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.');
    const extraneous = ['model', 'stream'].find((key) => key in body);
    if (extraneous) return bedrockError(res, 400, 'ValidationException', `Malformed input request: #: extraneous key [${extraneous}] is not permitted, please reformat your input and try again.`);
    if (typeof body.max_tokens !== 'number')
      return bedrockError(res, 400, 'ValidationException', 'Malformed input request: #: required key [max_tokens] not found, please reformat your input and try again.');
    if (action === 'invoke') return answerClaude(res, reply, claudeAnswer(reply, modelId, 'msg_bdrk_fake'), false);
    await writeEventStream(res, claudeChunks(reply, modelId), reply, exceptionMessage('throttlingException', reply.error?.message ?? 'Too many requests, please wait before trying again.'));
  });

  server.route('POST', /\/model\/([^/]+)\/(converse|converse-stream)/, async (request, res) => {
    const [, action] = request.params;
    const body = request.json as Record<string, unknown> | undefined;
    const messages = body?.messages;
    const reply = await begin(request, res);
    if (!reply) return;
    if (!Array.isArray(messages) || messages.length === 0 || messages.some((m) => !Array.isArray((m as { content?: unknown }).content))) {
      return bedrockError(res, 400, 'ValidationException', 'The model returned the following errors: messages: each message needs a content list');
    }
    if ((messages[0] as { role?: unknown }).role !== 'user')
      return bedrockError(res, 400, 'ValidationException', 'A conversation must start with a user message. Try again with a conversation that starts with a user message.');
    const answer = converseAnswer(reply);
    if (action === 'converse') return sendJson(res, 200, reply.body ?? converseBody(answer, reply.noUsage === true));
    await writeEventStream(res, converseStream(answer, reply.noUsage === true), reply, exceptionMessage('modelStreamErrorException', reply.error?.message ?? 'The model stream failed.'));
  });

  return fake;
}
