/**
 * A fake Google Vertex AI on 127.0.0.1 speaking the real wire format, with its OAuth token
 * endpoint:
 * - `POST /token`: the service-account grant (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`,
 *   `assertion`); the assertion's RS256 signature, issuer, audience (this URL), scope and
 *   lifetime are checked with `jose` against the account's public key; answers
 *   `{access_token, expires_in, token_type}`, or `{error, error_description}`.
 * - `POST /v1/projects/{p}/locations/{r}/publishers/google/models/{m}:generateContent` and
 *   `:streamGenerateContent?alt=sse` (Gemini's answers, gemini.ts),
 *   `…/publishers/anthropic/models/{m}:rawPredict` and `:streamRawPredict` (Claude's Messages body
 *   with `anthropic_version: vertex-2023-10-16` and no `model`; Claude's answers, claude.ts),
 *   `POST /v1beta1/projects/{p}/locations/{r}/endpoints/openapi/chat/completions` (OpenAI chat).
 *   Each needs `Authorization: Bearer <a token this fake issued>` and the account's project;
 *   errors use Google's `{error:{code, message, status}}` (Claude's shape for Claude models).
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import { answerClaude, claudeAnswer, claudeError } from './claude';
import { answerGenerateContent, geminiError } from './gemini';
import { firstByteDelay, type RecordedRequest, sendJson, startFakeHttpServer, scriptedFake } from './http-fake';
import { answerChat } from './openai-routes';
import { type ScriptEntry, ScriptQueue, type ScriptedReply } from './script';

export interface FakeVertex {
  url: string;
  /** The service account's JSON key (token_uri pointing at this fake). */
  serviceAccountKey: string;
  projectId: string;
  clientEmail: string;
  /** Token requests answered with a token. */
  tokensIssued: number;
  /** Every token endpoint call (answered or refused). */
  tokenRequests: number;
  /** Seconds the issued tokens live (`expires_in`). */
  tokenLifetime: number;
  requests: RecordedRequest[];
  script(...replies: ScriptEntry<RecordedRequest>[]): void;
  defaultReply: ScriptedReply;
  close(): Promise<void>;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

export async function startFakeVertex(options: { projectId?: string } = {}): Promise<FakeVertex> {
  const queue = new ScriptQueue<RecordedRequest>();
  const server = await startFakeHttpServer((request, res) => geminiError(res, 404, `The requested URL ${request.path} was not found on this server.`));
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const projectId = options.projectId ?? 'switchyard-fake-project';
  const clientEmail = `relay@${projectId}.iam.gserviceaccount.com`;
  const issued = new Set<string>();

  const fake: FakeVertex = scriptedFake(server, queue, {
    serviceAccountKey: '',
    projectId,
    clientEmail,
    tokensIssued: 0,
    tokenRequests: 0,
    tokenLifetime: 3599,
  });
  const tokenUri = `${server.url}/token`;
  fake.serviceAccountKey = JSON.stringify(
    {
      type: 'service_account',
      project_id: projectId,
      private_key_id: 'fake-key-id-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: '100000000000000000001',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: tokenUri,
    },
    null,
    2,
  );

  server.route('POST', '/token', async (request, res) => {
    fake.tokenRequests += 1;
    const form = new URLSearchParams(request.body);
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded') || form.get('grant_type') !== JWT_BEARER) {
      return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' });
    }
    if (!(await validAssertion(form.get('assertion') ?? '', publicKey, clientEmail, tokenUri))) {
      return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    fake.tokensIssued += 1;
    const token = `ya29.fake-${fake.tokensIssued}-${Math.random().toString(36).slice(2)}`;
    issued.add(token);
    sendJson(res, 200, { access_token: token, expires_in: fake.tokenLifetime, token_type: 'Bearer' });
  });

  /** Google's checks before a model call; the reply when the request may be answered. */
  async function begin(request: RecordedRequest, res: ServerResponse, project: string, claude: boolean): Promise<ScriptedReply | undefined> {
    const auth = String(request.headers.authorization ?? '');
    if (!auth.startsWith('Bearer ') || !issued.has(auth.slice('Bearer '.length))) {
      geminiError(res, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'UNAUTHENTICATED');
      return undefined;
    }
    if (project !== projectId) {
      geminiError(res, 403, `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${project}' (or it may not exist).`, 'PERMISSION_DENIED');
      return undefined;
    }
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (reply.error) {
      if (claude) claudeError(res, reply.error.status, reply.error.type ?? 'api_error', reply.error.message);
      else geminiError(res, reply.error.status, reply.error.message);
      return undefined;
    }
    return reply;
  }

  server.route('POST', /\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):(generateContent|streamGenerateContent)/, async (request, res) => {
    const [project, , model, action] = request.params;
    const body = (request.json ?? {}) as Record<string, unknown>;
    const reply = await begin(request, res, project, false);
    if (!reply) return;
    if (!Array.isArray(body.contents) || body.contents.length === 0) return geminiError(res, 400, 'Unable to submit request because it must have at least one contents field.');
    await answerGenerateContent(request, res, reply, model, action === 'streamGenerateContent');
  });

  server.route('POST', /\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)/, async (request, res) => {
    const [project, , model, action] = request.params;
    const body = request.json as Record<string, unknown> | undefined;
    const reply = await begin(request, res, project, true);
    if (!reply) return;
    if (!body || body.anthropic_version !== 'vertex-2023-10-16') return claudeError(res, 400, 'invalid_request_error', "anthropic_version: Input should be 'vertex-2023-10-16'");
    if ('model' in body) return claudeError(res, 400, 'invalid_request_error', 'model: Extra inputs are not permitted');
    if (typeof body.max_tokens !== 'number') return claudeError(res, 400, 'invalid_request_error', 'max_tokens: Field required');
    const stream = action === 'streamRawPredict';
    if (stream !== (body.stream === true)) return claudeError(res, 400, 'invalid_request_error', 'stream: streamRawPredict needs "stream": true, rawPredict none');
    await answerClaude(res, reply, claudeAnswer(reply, decodeURIComponent(model).replace('@', '-'), 'msg_vrtx_fake'), stream);
  });

  server.route('POST', /\/v1beta1\/projects\/([^/]+)\/locations\/([^/]+)\/endpoints\/openapi\/chat\/completions/, async (request, res) => {
    const [project] = request.params;
    const reply = await begin(request, res, project, false);
    if (!reply) return;
    const answer = await answerChat(res, (request.json ?? {}) as Record<string, unknown>, reply);
    if (answer) sendJson(res, answer.status ?? 200, answer.body);
  });

  return fake;
}

async function validAssertion(assertion: string, publicKey: KeyObject, issuer: string, audience: string): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(assertion, publicKey, { issuer, audience, algorithms: ['RS256'], maxTokenAge: '1h' });
    return payload.scope === SCOPE && typeof payload.exp === 'number' && payload.exp - (payload.iat ?? 0) <= 3600;
  } catch {
    return false;
  }
}
