/**
 * Anthropic Claude (type 14): `chat` converts OpenAI chat to Claude Messages and back (legacy
 * Text Completions for claude-instant/claude-2); `messages` speaks Claude's own format.
 */
import { parseUpstreamError } from '../common/errors';
import type { JsonObject } from '../common/json';
import { applyStreamFlag } from '../common/stream-flag';
import { joinUrl } from '../common/urls';
import { type Provider, ProviderRequestError, type RelayMode, type Target } from '../types';
import { openaiResponseFromClaude } from './chat-response';
import { ClaudeToOpenAIStream } from './chat-stream';
import { LegacyClaudeStream, legacyBody, parseLegacyResponse } from './legacy';
import { ClaudePassThroughStream, countTokensBody, parseNativeResponse } from './messages';
import { DEFAULT_ANTHROPIC_VERSION, claudeHeaders, completeUrl, countTokensUrl, isLegacyClaudeModel, messagesUrl } from './api';
import { claudeMessagesBody } from './request-body';
import { thinkingPlan } from './thinking';

const MODES: ReadonlySet<RelayMode> = new Set(['chat', 'messages']);

function assertMode(mode: RelayMode): void {
  if (!MODES.has(mode)) throw new ProviderRequestError(`${mode} is not supported by Claude channels`, 'not_supported');
}

function legacy(mode: RelayMode, target: Target): boolean {
  return mode === 'chat' && isLegacyClaudeModel(thinkingPlan(target.upstreamModel, target.options).model);
}

export const claudeProvider: Provider = {
  id: 'claude',
  modes: MODES,

  buildRequest(mode, body, target, stream) {
    assertMode(mode);
    const request = (url: string, json: JsonObject, model: string) => {
      applyStreamFlag(json, stream);
      return { url, method: 'POST' as const, headers: claudeHeaders(target, stream), body: JSON.stringify(json), model };
    };
    if (legacy(mode, target)) {
      const { model } = thinkingPlan(target.upstreamModel, target.options);
      return request(completeUrl(target), legacyBody(body, model), model);
    }
    const { json, model } = claudeMessagesBody(mode === 'messages' ? 'messages' : 'chat', body, target);
    return request(messagesUrl(target), json, model);
  },

  parseResponse(mode, json, target) {
    assertMode(mode);
    if (mode === 'messages') return parseNativeResponse(json);
    return legacy(mode, target) ? parseLegacyResponse(json) : openaiResponseFromClaude(json);
  },

  createStream(mode, target, client) {
    assertMode(mode);
    if (mode === 'messages') return new ClaudePassThroughStream();
    const { model } = thinkingPlan(target.upstreamModel, target.options);
    return legacy(mode, target) ? new LegacyClaudeStream(model, client.includeUsage) : new ClaudeToOpenAIStream(model, client.includeUsage);
  },

  parseError: parseUpstreamError,

  countTokensRequest(body, target) {
    const { model } = thinkingPlan(target.upstreamModel, target.options);
    return { url: countTokensUrl(target), method: 'POST', headers: claudeHeaders(target, false), body: JSON.stringify(countTokensBody(body, model)), model };
  },

  modelsRequest(target) {
    return {
      url: joinUrl(target.baseUrl, '/v1/models'),
      method: 'GET',
      headers: { 'x-api-key': target.key, 'anthropic-version': DEFAULT_ANTHROPIC_VERSION },
    };
  },
};
