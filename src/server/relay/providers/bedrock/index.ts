/**
 * AWS Bedrock (type 33, key `AK|SK|region`): Claude models through InvokeModel with Claude's
 * Messages body (chat converted, `/v1/messages` native), every other model family (Nova,
 * Llama, Mistral …) through the Converse API (chat). Streams are AWS event streams
 * (event-stream.ts); every request is signed with SigV4 over its final bytes (sign.ts).
 */
import { openaiResponseFromClaude } from '../claude/chat-response';
import { ClaudeToOpenAIStream } from '../claude/chat-stream';
import { ClaudePassThroughStream, parseNativeResponse } from '../claude/messages';
import { providerByModel } from '../common/by-model';
import { type Provider, ProviderRequestError, type RelayMode } from '../types';
import { bedrockClaudeBody } from './claude';
import { converseRequestFromOpenAI } from './converse-request';
import { openaiResponseFromConverse } from './converse-response';
import { ConverseToOpenAIStream } from './converse-stream';
import { bedrockError } from './errors';
import { EventStreamDecoder } from './event-stream';
import { bedrockHeaders, bedrockKey, bedrockModelId, bedrockUrl, isClaudeModel } from './api';
import { signBedrockRequest } from './sign';

const CLAUDE_MODES: ReadonlySet<RelayMode> = new Set(['chat', 'messages']);
const CONVERSE_MODES: ReadonlySet<RelayMode> = new Set(['chat']);

function assertMode(modes: ReadonlySet<RelayMode>, mode: RelayMode): void {
  if (!modes.has(mode)) throw new ProviderRequestError(`${mode} is not supported by AWS Bedrock channels`, 'not_supported');
}

const authorize: Provider['authorize'] = (request, target) => signBedrockRequest(request, bedrockKey(target.key));

const bedrockClaudeProvider: Provider = {
  id: 'bedrock-claude',
  modes: CLAUDE_MODES,

  buildRequest(mode, body, target, stream) {
    assertMode(CLAUDE_MODES, mode);
    const { region } = bedrockKey(target.key);
    const { json, model } = bedrockClaudeBody(mode === 'messages' ? 'messages' : 'chat', body, target);
    const modelId = bedrockModelId(model, region);
    const url = bedrockUrl(target, region, modelId, stream ? 'invoke-with-response-stream' : 'invoke');
    return { url, method: 'POST', headers: bedrockHeaders(stream), body: JSON.stringify(json), model: modelId };
  },

  parseResponse(mode, json) {
    return mode === 'messages' ? parseNativeResponse(json) : openaiResponseFromClaude(json);
  },

  createStream(mode, target, client) {
    assertMode(CLAUDE_MODES, mode);
    return mode === 'messages' ? new ClaudePassThroughStream() : new ClaudeToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  streamDecoder: () => new EventStreamDecoder('invoke'),
  parseError: bedrockError,
  authorize,
};

const bedrockConverseProvider: Provider = {
  id: 'bedrock-converse',
  modes: CONVERSE_MODES,

  buildRequest(mode, body, target, stream) {
    assertMode(CONVERSE_MODES, mode);
    const { region } = bedrockKey(target.key);
    const modelId = bedrockModelId(target.upstreamModel, region);
    const url = bedrockUrl(target, region, modelId, stream ? 'converse-stream' : 'converse');
    return { url, method: 'POST', headers: bedrockHeaders(stream), body: JSON.stringify(converseRequestFromOpenAI(body)), model: modelId };
  },

  parseResponse(_mode, json, target) {
    return openaiResponseFromConverse(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    assertMode(CONVERSE_MODES, mode);
    return new ConverseToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  streamDecoder: () => new EventStreamDecoder('converse'),
  parseError: bedrockError,
  authorize,
};

export const bedrockProvider = providerByModel(
  'aws',
  (model) => (isClaudeModel(model) ? bedrockClaudeProvider : bedrockConverseProvider),
  [bedrockClaudeProvider, bedrockConverseProvider],
  bedrockError,
);
