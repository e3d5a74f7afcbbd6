/**
 * AWS Bedrock (type 33, key `AK|SK|region`): Claude models through InvokeModel with Claude's
 * Messages body (chat converted, `/v1/messages` native), every other model family (Nova,
 * Llama, Mistral …) through the Converse API (chat). Streams are AWS event streams
 * (event-stream.ts); every request is signed with SigV4 over its final bytes (sign.ts).
 */
import { claudeCloudAnswers, CLAUDE_CLOUD_MODES } from '../claude/cloud-member';
import { providerByModel } from '../common/by-model';
import { assertModeIn } from '../common/modes';
import type { Provider, RelayMode } from '../types';
import { bedrockClaudeBody } from './claude';
import { converseRequestFromOpenAI } from './converse-request';
import { openaiResponseFromConverse } from './converse-response';
import { ConverseToOpenAIStream } from './converse-stream';
import { bedrockError } from './errors';
import { EventStreamDecoder } from './event-stream';
import { bedrockHeaders, bedrockKey, bedrockModelId, bedrockUrl, isClaudeModel } from './api';
import { signBedrockRequest } from './sign';

const CONVERSE_MODES: ReadonlySet<RelayMode> = new Set(['chat']);
const WHERE = 'AWS Bedrock channels';

const authorize: Provider['authorize'] = (request, target) => signBedrockRequest(request, bedrockKey(target.key));

const bedrockClaudeProvider: Provider = {
  id: 'bedrock-claude',
  ...claudeCloudAnswers(WHERE),

  buildRequest(mode, body, target, stream) {
    assertModeIn(CLAUDE_CLOUD_MODES, mode, WHERE);
    const { region } = bedrockKey(target.key);
    const { json, model } = bedrockClaudeBody(mode === 'messages' ? 'messages' : 'chat', body, target);
    const modelId = bedrockModelId(model, region);
    const url = bedrockUrl(target, region, modelId, stream ? 'invoke-with-response-stream' : 'invoke');
    return { url, method: 'POST', headers: bedrockHeaders(stream), body: JSON.stringify(json), model: modelId };
  },

  streamDecoder: () => new EventStreamDecoder('invoke'),
  parseError: bedrockError,
  authorize,
};

const bedrockConverseProvider: Provider = {
  id: 'bedrock-converse',
  modes: CONVERSE_MODES,

  buildRequest(mode, body, target, stream) {
    assertModeIn(CONVERSE_MODES, mode, WHERE);
    const { region } = bedrockKey(target.key);
    const modelId = bedrockModelId(target.upstreamModel, region);
    const url = bedrockUrl(target, region, modelId, stream ? 'converse-stream' : 'converse');
    return { url, method: 'POST', headers: bedrockHeaders(stream), body: JSON.stringify(converseRequestFromOpenAI(body)), model: modelId };
  },

  parseResponse(_mode, json, target) {
    return openaiResponseFromConverse(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    assertModeIn(CONVERSE_MODES, mode, WHERE);
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
