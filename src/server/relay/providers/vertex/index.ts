/**
 * Google Vertex AI (type 41, key: a service account's JSON key, region in `other`): Gemini
 * models through Gemini's generateContent (OpenAI chat converted as for Gemini channels,
 * Gemini-native callers passed through), Claude models through Anthropic's Messages body
 * (`:rawPredict`, `anthropic_version: vertex-2023-10-16`, no `model`), open models (Llama,
 * `-maas`) through Vertex's OpenAI-compatible endpoint. Every request carries the service
 * account's OAuth access token (service-account.ts, fetched and cached by the relay).
 */
import { claudeOptionalHeaders } from '../claude/api';
import { claudeCloudAnswers, CLAUDE_CLOUD_MODES } from '../claude/cloud-member';
import { claudeMessagesBody } from '../claude/request-body';
import { providerByModel } from '../common/by-model';
import { parseUpstreamError } from '../common/errors';
import { jsonHeaders } from '../common/headers';
import type { JsonObject } from '../common/json';
import { applyStreamFlag } from '../common/stream-flag';
import { geminiRequestFromOpenAI } from '../gemini/chat-request';
import { openaiResponseFromGemini } from '../gemini/chat-response';
import { GeminiToOpenAIStream } from '../gemini/chat-stream';
import { GeminiPassThroughStream, nativeGenerateBody, parseNativeResponse as parseGeminiNative } from '../gemini/native';
import { assertModeIn } from '../common/modes';
import { createOpenAICompatible } from '../openai-compatible/factory';
import type { Provider, RelayMode, Target } from '../types';
import { openapiUrl, publisherModelUrl, vertexClaudeModel, vertexFamily, vertexRegion } from './api';
import { accessTokenGrant, serviceAccount } from './service-account';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const GEMINI_MODES: ReadonlySet<RelayMode> = new Set(['chat', 'gemini']);
const WHERE = 'this model on Vertex AI channels';

/** The project of the channel's service account and the region of the requested model. */
function placeOf(target: Target): { project: string; region: string } {
  return { project: serviceAccount(target.key).projectId, region: vertexRegion(target.other, target.requestModel) };
}

/** The service account's access token (and its project for quota), on every Vertex request. */
const authorize: Provider['authorize'] = async (request, target, services) => {
  const account = serviceAccount(target.key);
  const token = await services.accessToken(accessTokenGrant(target.key, account));
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}`, 'x-goog-user-project': account.projectId } };
};

const vertexClaudeProvider: Provider = {
  id: 'vertex-claude',
  ...claudeCloudAnswers(WHERE),

  buildRequest(mode, body, target, stream) {
    assertModeIn(CLAUDE_CLOUD_MODES, mode, WHERE);
    const { project, region } = placeOf(target);
    const { json, model } = claudeMessagesBody(mode === 'messages' ? 'messages' : 'chat', body, target);
    const out: JsonObject = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...json };
    // The model is in the URL; Vertex refuses it (and metadata) in the body.
    delete out.model;
    delete out.metadata;
    applyStreamFlag(out, stream);
    const vertexModel = vertexClaudeModel(model);
    const url = publisherModelUrl(target, project, region, 'anthropic', vertexModel, stream ? 'streamRawPredict?alt=sse' : 'rawPredict');
    return { url, method: 'POST', headers: claudeOptionalHeaders(target, jsonHeaders(stream)), body: JSON.stringify(out), model: vertexModel };
  },

  parseError: parseUpstreamError,
  authorize,
};

const vertexGeminiProvider: Provider = {
  id: 'vertex-gemini',
  modes: GEMINI_MODES,

  buildRequest(mode, body, target, stream) {
    assertModeIn(GEMINI_MODES, mode, WHERE);
    const { project, region } = placeOf(target);
    const model = target.upstreamModel;
    const url = publisherModelUrl(target, project, region, 'google', model, stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
    const upstreamBody = mode === 'gemini' ? nativeGenerateBody(body, target) : JSON.stringify(geminiRequestFromOpenAI(body, target.options));
    return { url, method: 'POST', headers: jsonHeaders(stream), body: upstreamBody, model };
  },

  parseResponse(mode, json, target) {
    return mode === 'gemini' ? parseGeminiNative(json) : openaiResponseFromGemini(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    assertModeIn(GEMINI_MODES, mode, WHERE);
    return mode === 'gemini' ? new GeminiPassThroughStream() : new GeminiToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  parseError: parseUpstreamError,
  authorize,
};

const vertexOpenApiProvider: Provider = {
  ...createOpenAICompatible({
    id: 'vertex-openapi',
    paths: { chat: '/chat/completions' },
    url: ({ target }) => {
      const { project, region } = placeOf(target);
      return openapiUrl(target, project, region);
    },
    // The access token is added by `authorize`.
    headers: () => ({}),
    streamUsage: true,
    modelsPath: null,
  }),
  authorize,
};

const MEMBERS = { claude: vertexClaudeProvider, gemini: vertexGeminiProvider, openapi: vertexOpenApiProvider } as const;

export const vertexProvider = providerByModel('vertex', (model) => MEMBERS[vertexFamily(model)], Object.values(MEMBERS), parseUpstreamError);
