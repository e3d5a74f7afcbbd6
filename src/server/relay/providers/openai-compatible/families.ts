/**
 * OpenAI-shaped families that differ from OpenAI only in paths, headers or a parameter rule
 * (docs/relay.md#other-families): every such family is one entry here. OpenAI itself, Azure and
 * Ollama, which have code of their own, live in their own folders.
 */
import { CHANNEL_TYPE } from '../../../../shared/channel-types';
import type { JsonObject } from '../common/json';
import { num, obj, str } from '../common/json';
import { usageFromOpenAI } from '../common/usage';
import { joinUrl } from '../common/urls';
import { ProviderRequestError, type Target, type Usage } from '../types';
import { bearer, createOpenAICompatible } from './factory';
import { OPENAI_PATHS, openaiPaths } from './paths';

/** Every other OpenAI-shaped type (legacy resellers, 360, OpenRouter, FastGPT, Moonshot, 01.AI, Xinference ...). */
export const openaiCompatibleProvider = createOpenAICompatible({
  id: 'openai-compatible',
  paths: OPENAI_PATHS,
  // OpenRouter shows the calling app by this header (its HTTP-Referer needs a public site URL, which we lack).
  headers: (target) => (target.channelType === CHANNEL_TYPE.openRouter ? { ...bearer(target), 'X-Title': 'Switchyard' } : bearer(target)),
});

/** Clamps `top_p` into a range when the client sent one. */
function clampTopP(body: JsonObject, min: number, max: number): void {
  if (typeof body.top_p !== 'number') return;
  body.top_p = Math.min(max, Math.max(min, body.top_p));
}

export const perplexityProvider = createOpenAICompatible({
  id: 'perplexity',
  paths: { chat: '/chat/completions' },
  // Perplexity rejects top_p >= 1.
  adjustBody: (body) => clampTopP(body, 0, 0.99),
  modelsPath: null,
});

/** xAI reports reasoning outside completion_tokens; it is billed as output, so completion = total − prompt. */
function xaiUsage(raw: unknown): Usage | undefined {
  const usage = usageFromOpenAI(raw);
  const total = num(obj(raw).total_tokens);
  if (usage && total > usage.promptTokens + usage.completionTokens) usage.completionTokens = total - usage.promptTokens;
  return usage;
}

export const xaiProvider = createOpenAICompatible({
  id: 'xai',
  paths: openaiPaths('chat', 'completions', 'images'),
  streamUsage: true,
  readUsage: xaiUsage,
});

export const mistralProvider = createOpenAICompatible({ id: 'mistral', paths: openaiPaths('chat', 'embeddings') });

export const siliconflowProvider = createOpenAICompatible({
  id: 'siliconflow',
  paths: openaiPaths('chat', 'completions', 'embeddings', 'rerank', 'images'),
});

export const volcengineProvider = createOpenAICompatible({
  id: 'volcengine',
  paths: { chat: '/api/v3/chat/completions', embeddings: '/api/v3/embeddings' },
  // Ark "bots" (applications) have their own chat path.
  url: ({ mode, target, model, path }) => joinUrl(target.baseUrl, mode === 'chat' && model.startsWith('bot') ? '/api/v3/bots/chat/completions' : path),
  streamUsage: true,
  modelsPath: null,
});

export const minimaxProvider = createOpenAICompatible({ id: 'minimax', paths: { chat: '/v1/text/chatcompletion_v2' }, modelsPath: null });

export const aliProvider = createOpenAICompatible({
  id: 'ali',
  // DashScope's OpenAI-compatible mode; its native image and embedding APIs are not used.
  paths: { chat: '/compatible-mode/v1/chat/completions', embeddings: '/compatible-mode/v1/embeddings' },
  // The channel's `other` names a DashScope plugin.
  headers: (target) => (target.other ? { ...bearer(target), 'X-DashScope-Plugin': target.other } : bearer(target)),
  adjustBody: (body) => clampTopP(body, 0.001, 0.999),
  streamUsage: true,
  modelsPath: '/compatible-mode/v1/models',
});

export const baiduV2Provider = createOpenAICompatible({ id: 'baidu-v2', paths: { chat: '/v2/chat/completions' }, modelsPath: null });

/** Zhipu's v4 API accepts the API key itself as the Bearer token (no self-signed JWT needed). */
export const zhipu4vProvider = createOpenAICompatible({
  id: 'zhipu-4v',
  paths: { chat: '/api/paas/v4/chat/completions', embeddings: '/api/paas/v4/embeddings' },
  modelsPath: null,
});

export const jinaProvider = createOpenAICompatible({ id: 'jina', paths: openaiPaths('embeddings', 'rerank'), modelsPath: null });

/** Cloudflare Workers AI: the account id (channel `other`) is part of every URL. */
function cloudflareUrl(target: Target, path: string): string {
  const account = str(target.other)?.trim();
  if (!account) throw new ProviderRequestError('Cloudflare channels need the account id', 'invalid_channel');
  return joinUrl(target.baseUrl, `/client/v4/accounts/${encodeURIComponent(account)}/ai${path}`);
}

export const cloudflareProvider = createOpenAICompatible({
  id: 'cloudflare',
  paths: { chat: '/v1/chat/completions', embeddings: '/v1/embeddings' },
  url: ({ target, path }) => cloudflareUrl(target, path),
  streamUsage: true,
  modelsPath: null,
});

/**
 * DeepSeek (type 43): OpenAI-shaped chat with `reasoning_content` (forwarded as is and counted as
 * output); completions (FIM) live under `/beta`; cache hits arrive as `prompt_cache_hit_tokens`,
 * which the shared usage reader maps to cached tokens.
 */
export const deepseekProvider = createOpenAICompatible({
  id: 'deepseek',
  paths: { chat: '/v1/chat/completions', completions: '/beta/completions' },
  // DeepSeek documents stream_options.include_usage.
  streamUsage: true,
});

/** Custom channels (type 8): the base URL is the complete request URL, `{model}` filled in (docs/relay.md#base-url). */
export const customProvider = createOpenAICompatible({
  id: 'custom',
  paths: OPENAI_PATHS,
  url: ({ target, model }) => {
    if (!target.baseUrl) throw new ProviderRequestError('custom channels need the full request URL as base URL', 'invalid_channel');
    return target.baseUrl.replaceAll('{model}', model);
  },
  modelsPath: null,
});

/**
 * MokaAI M3E (type 44): embeddings only, OpenAI's embeddings shape at `<base>/embeddings` (no
 * `/v1`), as the reference sends them. M3E has no chat and no model list.
 */
export const mokaaiProvider = createOpenAICompatible({ id: 'mokaai', paths: { embeddings: '/embeddings' }, modelsPath: null });
