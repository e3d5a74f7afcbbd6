/**
 * The relay's HTTP surface: `/v1/...` for API clients (sk- tokens) and `/pg/chat/completions`
 * for the console's playground (session). Each scope has its own error handler — OpenAI's
 * error shape, Claude's on /v1/messages — its own body parser (bytes kept, parsed by the
 * pipeline after authentication), gzip/br request bodies, CORS for every origin on the API-key
 * scopes (none on the playground, which rides the console session), the
 * `X-Oneapi-Request-Id` header, and no response compression (streams must not be buffered).
 */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import cookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, MSG } from '../errors';
import { isDatabaseUnavailable } from '../db/unavailable';
import { claudeErrorBody, geminiErrorBody, internalError, openaiErrorBody, refuse, RelayError } from './errors';
import { registerGeminiRoutes } from './gemini-routes';
import { countClaudeTokens } from './claude-count';
import { REQUEST_ID_HEADER } from './request-id';
import { assignRequestId, requestIdOf } from './pipeline/request-context';
import { ENDPOINTS, type ClientFormat, type EndpointSpec } from './pipeline/endpoints';
import { relayWithToken } from './pipeline/relay';
import { relayPlayground } from './pipeline/playground';
import { authenticateToken } from './pipeline/token-auth';
import { listModels, retrieveModel } from './models';
import { subscriptionHandler, usageHandler } from './billing-compat';
import { rateLimitHook } from '../plumbing/rate-limit';
import type { RelayRuntime } from './runtime';
import type { RawBody } from './pipeline/body';
import type { RelayRequest } from './pipeline/exchange';
import { finishIfSilent } from './silent-reply';

import { MIDJOURNEY_ROUTES, MJ_MODES, SUNO_ROUTES, type TaskRoute } from './tasks/routes';
import { MjError, mjRefuse } from './tasks/midjourney/mj-error';
import { parseJson } from './tasks/task-upstream';
import { findUnstorableText } from '../api/params';
import { invalidRequest, SunoError } from './tasks/suno/task-error';
import { storedResponseRoute } from './responses/routes';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which error shape the relay answers with on this route. */
    clientFormat?: ClientFormat;
  }
}

const CORS_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';

/** Who may call a relay scope from a web page of another origin. */
type CorsPolicy = 'any-origin' | 'same-origin';

/**
 * CORS of the API-key scopes (/v1, /dashboard, /mj, /suno): any origin, never credentials —
 * the key in the request is the whole authority, so no cookie rides along and the console's
 * `New-Api-User` header is not offered. API clients send no Origin and get none of it.
 */
function corsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.origin === undefined) return;
  reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Vary', 'Origin');
  reply.header('Access-Control-Expose-Headers', REQUEST_ID_HEADER);
}

/** The preflight of an API-key scope: the method and the headers asked for (bar the console's). */
function corsPreflight(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.origin === undefined) return;
  reply.header('Access-Control-Allow-Methods', CORS_METHODS);
  const asked = request.headers['access-control-request-headers'];
  if (asked) {
    const allowed = asked
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && name.toLowerCase() !== 'new-api-user');
    if (allowed.length > 0) reply.header('Access-Control-Allow-Headers', allowed.join(', '));
    reply.header('Vary', 'Origin, Access-Control-Request-Headers');
  }
  reply.header('Access-Control-Max-Age', '600');
}

export function toRelayError(error: unknown, request: RelayRequest, rt: RelayRuntime): RelayError {
  if (error instanceof RelayError) return error;
  if (error instanceof AppError) return refuse(error.status >= 400 ? error.status : 400, error.message);
  const fe = error as FastifyError;
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuse(413, 'request body too large', 'request_body_too_large');
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return refuse(400, `Invalid request, 无效的请求, ${fe.message}`, 'invalid_request');
  if (isDatabaseUnavailable(error)) return refuse(503, MSG.dbError, 'database_unavailable');
  rt.log.error(`relay internal error (request id: ${requestIdOf(request)}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return internalError();
}

/**
 * The server's answer to a path that is not valid percent-encoding (Fastify's `frameworkErrors`).
 * Fastify's own repeats the whole URL, query included, which can carry a key (Gemini clients
 * send `?key=`): this one names the path only, in Google's shape on /v1beta.
 */
export function badUrlReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code !== 'FST_ERR_BAD_URL') {
    void reply.send(error);
    return;
  }
  const path = request.url.split('?')[0] ?? '';
  const message = `'${path}' is not a valid url component`;
  if (path.startsWith('/v1beta/')) void reply.code(400).send(geminiErrorBody(refuse(400, message), ''));
  else void reply.code(400).send({ error: 'Bad Request', code: 'FST_ERR_BAD_URL', message, statusCode: 400 });
}

/** The error's body in the endpoint's shape. */
export function relayErrorBody(error: RelayError, format: ClientFormat | undefined, requestId: string): object {
  if (format === 'gemini') return geminiErrorBody(error, requestId);
  return format === 'claude' ? claudeErrorBody(error, requestId) : openaiErrorBody(error, requestId);
}

function errorHandler(rt: RelayRuntime) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    const relayError = toRelayError(error, request, rt);
    // A stream already under way cannot change its status: end it.
    if (reply.sent || reply.raw.headersSent) {
      if (!reply.raw.writableEnded) reply.raw.end();
      return;
    }
    if (relayError.retryAfter !== undefined) reply.header('Retry-After', String(relayError.retryAfter));
    void reply.code(relayError.status).send(relayErrorBody(relayError, request.routeOptions.config.clientFormat, requestIdOf(request)));
  };
}

/**
 * Hooks and parsers every relay scope shares. `cors`: 'any-origin' for the API-key scopes;
 * 'same-origin' sends no CORS headers at all, so browsers keep other origins out (the
 * console calls from its own origin and needs none).
 */
function prepareScope(scope: FastifyInstance, rt: RelayRuntime, cors: CorsPolicy, onError: ReturnType<typeof errorHandler> = errorHandler(rt)): void {
  const anyOrigin = cors === 'any-origin';
  // Callback-style hooks: an async hook costs a promise per request on the hot path.
  scope.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, assignRequestId(request));
    if (anyOrigin) corsHeaders(request, reply);
    done();
  });
  // Compressed request bodies are unpacked before the parser counts and keeps them.
  scope.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding === undefined) return done(null, payload);
    const name = String(encoding).toLowerCase();
    const unpack = name === 'gzip' ? createGunzip() : name === 'br' ? createBrotliDecompress() : name === 'deflate' ? createInflate() : undefined;
    if (!unpack) return done(null, payload);
    delete request.headers['content-length'];
    done(null, payload.pipe(unpack));
  });
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: rt.ctx.config.bodyLimit }, (request, body, done) => {
    const stored: RawBody = { raw: body as Buffer, contentType: String(request.headers['content-type'] ?? '') };
    done(null, stored);
  });
  scope.setErrorHandler(onError);
  scope.options('/*', async (request, reply) => {
    if (anyOrigin) corsPreflight(request, reply);
    return reply.code(204).send();
  });
}

/** Routes that pass token auth and then say "not implemented" (the reference's 501). */
const NOT_IMPLEMENTED: [string, string][] = [
  ['POST', '/images/edits'],
  ['POST', '/images/variations'],
  ['GET', '/files'],
  ['POST', '/files'],
  ['GET', '/files/:id'],
  ['DELETE', '/files/:id'],
  ['GET', '/files/:id/content'],
  ['GET', '/fine-tunes'],
  ['POST', '/fine-tunes'],
  ['GET', '/fine-tunes/:id'],
  ['POST', '/fine-tunes/:id/cancel'],
  ['GET', '/fine-tunes/:id/events'],
  ['DELETE', '/models/:model'],
];

function relayRoute(rt: RelayRuntime, spec: EndpointSpec) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await relayWithToken(rt, spec, request, reply);
    finishIfSilent(reply);
  };
}

/**
 * The task relays' scopes: their own error shapes (Midjourney's, Suno's) for their own
 * refusals; authentication and distributor refusals keep the OpenAI shape, as the reference's
 * middleware answers them.
 */
/**
 * `badText`: the scope's refusal of text no database stores as sent (a NUL, a lone
 * surrogate) in the path, the query or the JSON body, before any handler reads or stores it.
 */
function registerTaskScope(scope: FastifyInstance, rt: RelayRuntime, routes: readonly TaskRoute[], badText: () => Error, modes?: ReadonlySet<string>): void {
  const relayErrors = errorHandler(rt);
  prepareScope(scope, rt, 'any-origin', (error, request, reply) => {
    if (error instanceof MjError || error instanceof SunoError) {
      void reply.code(error.status).send(error.body());
      return;
    }
    relayErrors(error, request, reply);
  });
  for (const route of routes) {
    scope.route<{ Params: Record<string, string> }>({
      method: route.method,
      url: route.url,
      config: { clientFormat: 'openai' },
      handler: async (request, reply) => {
        const mode = modes ? request.params.mode : undefined;
        if (modes && !modes.has(mode ?? '')) {
          return reply.code(404).send({ error: { message: `Invalid URL (${request.method} ${request.url.split('?')[0]})`, type: 'invalid_request_error', param: '', code: '' } });
        }
        const raw = (request.body as RawBody | undefined)?.raw;
        const body = raw && raw.length > 0 ? parseJson(raw.toString('utf8')) : undefined;
        if (findUnstorableText(request.params, 'params') ?? findUnstorableText(request.query, 'query') ?? findUnstorableText(body, 'body')) throw badText();
        const answer = await route.handle(rt, { request, params: request.params, mode, raw: reply.raw });
        if (!answer) {
          reply.hijack();
          return reply;
        }
        return reply.code(answer.status).header('content-type', 'application/json').send(answer.body);
      },
    });
  }
}

/** OpenAI's old balance endpoints, behind the global API rate limit as in the reference. */
function registerBillingCompat(scope: FastifyInstance, rt: RelayRuntime, base: string): void {
  const options = { config: { clientFormat: 'openai' as const }, onRequest: rateLimitHook(rt.ctx.rateLimiter, 'GA', rt.ctx.config.globalApiRateLimit) };
  scope.get(`${base}/billing/subscription`, options, subscriptionHandler(rt));
  scope.get(`${base}/billing/usage`, options, usageHandler(rt));
}

export async function registerRelay(server: FastifyInstance, rt: RelayRuntime): Promise<void> {
  await server.register(
    async (v1) => {
      prepareScope(v1, rt, 'any-origin');
      const openai = { config: { clientFormat: 'openai' as const } };
      v1.post('/chat/completions', openai, relayRoute(rt, ENDPOINTS.chat));
      v1.post('/completions', openai, relayRoute(rt, ENDPOINTS.completions));
      v1.post('/embeddings', openai, relayRoute(rt, ENDPOINTS.embeddings));
      v1.post<{ Params: { model: string } }>('/engines/:model/embeddings', openai, async (request, reply) => {
        await relayWithToken(rt, { ...ENDPOINTS.embeddings, defaultModel: request.params.model }, request, reply);
        finishIfSilent(reply);
      });
      v1.post('/moderations', openai, relayRoute(rt, ENDPOINTS.moderations));
      v1.post('/rerank', openai, relayRoute(rt, ENDPOINTS.rerank));
      v1.post('/images/generations', openai, relayRoute(rt, ENDPOINTS.images));
      v1.post('/audio/speech', openai, relayRoute(rt, ENDPOINTS.speech));
      v1.post('/audio/transcriptions', openai, relayRoute(rt, ENDPOINTS.transcriptions));
      v1.post('/audio/translations', openai, relayRoute(rt, ENDPOINTS.translations));
      v1.post('/messages', { config: { clientFormat: 'claude' } }, relayRoute(rt, ENDPOINTS.messages));
      v1.post('/responses', openai, relayRoute(rt, ENDPOINTS.responses));
      v1.get<{ Params: { id: string } }>('/responses/:id', openai, (request, reply) => storedResponseRoute(rt, request, reply, 'GET'));
      v1.delete<{ Params: { id: string } }>('/responses/:id', openai, (request, reply) => storedResponseRoute(rt, request, reply, 'DELETE'));
      v1.get<{ Params: { id: string } }>('/responses/:id/input_items', openai, (request, reply) => storedResponseRoute(rt, request, reply, 'INPUT_ITEMS'));
      v1.post('/messages/count_tokens', { config: { clientFormat: 'claude' } }, async (request) => countClaudeTokens(rt, request));
      v1.get('/models', openai, async (request) => listModels(rt, await authenticateToken(rt.ctx, rt.auth, request, false)));
      v1.get<{ Params: { model: string } }>('/models/:model', openai, async (request) => {
        await authenticateToken(rt.ctx, rt.auth, request, false);
        return retrieveModel(request.params.model);
      });
      registerBillingCompat(v1, rt, '/dashboard');
      registerGeminiRoutes(v1, rt, false);
      for (const [method, url] of NOT_IMPLEMENTED) {
        v1.route({
          method,
          url,
          config: { clientFormat: 'openai' },
          handler: async (request) => {
            await authenticateToken(rt.ctx, rt.auth, request, false);
            throw refuse(501, 'API not implemented', 'api_not_implemented');
          },
        });
      }
      v1.setNotFoundHandler((request, reply) => {
        const path = request.url.split('?')[0];
        void reply.code(404).send({ error: { message: `Invalid URL (${request.method} ${path})`, type: 'invalid_request_error', param: '', code: '' } });
      });
    },
    { prefix: '/v1' },
  );
  await server.register(
    async (v1beta) => {
      prepareScope(v1beta, rt, 'any-origin');
      registerGeminiRoutes(v1beta, rt, true);
      v1beta.setNotFoundHandler((request, reply) => {
        const path = request.url.split('?')[0];
        void reply.code(404).send(geminiErrorBody(refuse(404, `Invalid URL (${request.method} ${path})`), requestIdOf(request)));
      });
    },
    { prefix: '/v1beta' },
  );
  await server.register(async (mj) => registerTaskScope(mj, rt, MIDJOURNEY_ROUTES, () => mjRefuse('bind_request_body_failed')), { prefix: '/mj' });
  await server.register(async (mj) => registerTaskScope(mj, rt, MIDJOURNEY_ROUTES, () => mjRefuse('bind_request_body_failed'), MJ_MODES), { prefix: '/:mode/mj' });
  await server.register(async (suno) => registerTaskScope(suno, rt, SUNO_ROUTES, () => invalidRequest('text contains a NUL character or an unpaired surrogate')), { prefix: '/suno' });
  await server.register(
    async (dashboard) => {
      prepareScope(dashboard, rt, 'any-origin');
      registerBillingCompat(dashboard, rt, '');
    },
    { prefix: '/dashboard' },
  );
  await server.register(
    async (pg) => {
      // The playground signs in with the console's session cookie: same origin only.
      await pg.register(cookie, { secret: rt.ctx.config.sessionSecret });
      prepareScope(pg, rt, 'same-origin');
      pg.post('/chat/completions', { config: { clientFormat: 'openai' } }, async (request, reply) => {
        await relayPlayground(rt, request, reply);
        finishIfSilent(reply);
      });
    },
    { prefix: '/pg' },
  );
}
