/**
 * Gemini's own API for Google's clients (the @google/genai SDK, the Gemini CLI):
 *
 *   POST /v1beta/models/{model}:generateContent | :streamGenerateContent (`?alt=sse`: SSE,
 *        else one JSON array) | :countTokens (answered here) | :embedContent | :batchEmbedContents
 *   GET  /v1beta/models, /v1beta/models/{model}   (what the token may use, in Gemini's shape)
 *
 * and the same POST actions under /v1. The key comes as `x-goog-api-key`, `?key=` or a
 * Bearer token; errors are Google's `{error:{code,message,status}}`. Generation and
 * embeddings run the ordinary pipeline (modes `gemini`, `gemini-embeddings`): Gemini channels
 * get the body as it came, other channels it converted through OpenAI chat / embeddings.
 *
 * `{model}:{action}` is one path segment, which Fastify's `:param` syntax cannot split, so
 * the routes take the rest of the path (`*`) and read it here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isEmbeddingModel } from './providers/gemini/api';
import { refuse } from './errors';
import { countTokensRequestTokens } from './formats/gemini-count';
import { modelIdsFor } from './models';
import { parseJsonBody } from './pipeline/body';
import { ENDPOINTS, MAX_MODEL_NAME_LENGTH, validateGeminiGenerate, type EndpointSpec } from './pipeline/endpoints';
import { relayWithToken } from './pipeline/relay';
import { authenticateToken } from './pipeline/token-auth';
import { finishIfSilent } from './silent-reply';
import type { RelayRuntime } from './runtime';

type WildcardRequest = FastifyRequest<{ Params: { '*': string } }>;

const GEMINI = { config: { clientFormat: 'gemini' as const } };

/** Google's methods as served here. */
const GENERATION_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];
const EMBEDDING_METHODS = ['embedContent', 'batchEmbedContents', 'countTokens'];

function firstValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/**
 * Google's clients send the key as `x-goog-api-key` or `?key=`; the relay's token auth reads
 * `Authorization`, so the key is put there (the request object itself, which carries the
 * request id). `key` leaves the query: nothing downstream may pass it on.
 */
function adoptGoogleKey(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = typeof query?.key === 'string' ? query.key.trim() : '';
  if (query && 'key' in query) delete query.key;
  const key = firstValue(request.headers['x-goog-api-key']) || fromQuery;
  if (key) request.headers.authorization = `Bearer ${key}`;
}

/** A model name as Google's clients send it (`models/` optional), checked like every relay model. */
function modelName(raw: string): string {
  const model = raw.replace(/^models\//, '').trim();
  if (!model) throw refuse(400, 'model is required', 'invalid_request');
  if (model.length > MAX_MODEL_NAME_LENGTH) throw refuse(400, `model name is longer than ${MAX_MODEL_NAME_LENGTH} characters`, 'invalid_request');
  if (/[\0\p{Cs}]/u.test(model)) throw refuse(400, 'model name contains a NUL character or an unpaired surrogate', 'invalid_request');
  return model;
}

/** `{model}:{action}` from the path's rest. */
function modelAction(rest: string): { model: string; action: string } {
  const colon = rest.lastIndexOf(':');
  if (colon < 0) throw refuse(404, `Method not found: POST models/${rest}; the path must end in :{action}`, 'not_found');
  return { model: modelName(rest.slice(0, colon)), action: rest.slice(colon + 1) };
}

function modelEntry(id: string) {
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    description: id,
    supportedGenerationMethods: isEmbeddingModel(id) ? EMBEDDING_METHODS : GENERATION_METHODS,
  };
}

/** countTokens: the project's tokenizer, no upstream call and nothing billed. */
async function countTokens(rt: RelayRuntime, request: FastifyRequest, model: string) {
  await authenticateToken(rt.ctx, rt.auth, request, false);
  const { body } = parseJsonBody(request);
  const inner = body.generateContentRequest;
  if (inner !== undefined) {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) throw refuse(400, 'generateContentRequest must be an object', 'invalid_request');
    validateGeminiGenerate(inner as Record<string, unknown>);
  } else {
    validateGeminiGenerate(body);
  }
  return { totalTokens: countTokensRequestTokens(body, model) };
}

function actionSpec(action: string, model: string, query: Record<string, unknown>): EndpointSpec | undefined {
  switch (action) {
    case 'generateContent':
      return { ...ENDPOINTS.gemini, pathModel: model, stream: false };
    case 'streamGenerateContent':
      return { ...ENDPOINTS.gemini, pathModel: model, stream: true, jsonStream: query.alt !== 'sse' };
    case 'embedContent':
    case 'batchEmbedContents':
      return { ...ENDPOINTS.geminiEmbeddings, pathModel: model, stream: false };
    default:
      return undefined;
  }
}

/** `listing`: also the model list and lookup (/v1beta; /v1/models is OpenAI's). */
export function registerGeminiRoutes(scope: FastifyInstance, rt: RelayRuntime, listing: boolean): void {
  scope.post('/models/*', GEMINI, async (request: WildcardRequest, reply) => {
    const { model, action } = modelAction(request.params['*']);
    adoptGoogleKey(request);
    if (action === 'countTokens') return countTokens(rt, request, model);
    const spec = actionSpec(action, model, (request.query ?? {}) as Record<string, unknown>);
    if (!spec) throw refuse(404, `Method not found: ${action} is not a method of models/${model}`, 'not_found');
    await relayWithToken(rt, spec, request, reply);
    finishIfSilent(reply);
  });
  if (!listing) return;
  scope.get('/models', GEMINI, async (request) => {
    adoptGoogleKey(request);
    const auth = await authenticateToken(rt.ctx, rt.auth, request, false);
    return { models: modelIdsFor(rt, auth).map(modelEntry) };
  });
  scope.get('/models/*', GEMINI, async (request: WildcardRequest) => {
    adoptGoogleKey(request);
    const auth = await authenticateToken(rt.ctx, rt.auth, request, false);
    const model = modelName(request.params['*']);
    if (!modelIdsFor(rt, auth).includes(model)) throw refuse(404, `models/${model} is not found or not available to this key`, 'not_found');
    return modelEntry(model);
  });
}
