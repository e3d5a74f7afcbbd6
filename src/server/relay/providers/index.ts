/**
 * The provider registry: channel family -> provider. A family without a provider answers
 * undefined, and the pipeline replies "not supported" (never a silent pass-through).
 */
import { type ChannelFamily, channelFamily } from '../../../shared/channel-types';
import { aiproxyProvider } from './aiproxy';
import { azureProvider } from './azure';
import { baiduProvider } from './baidu';
import { bedrockProvider } from './bedrock';
import { claudeProvider } from './claude';
import { cohereProvider } from './cohere';
import { difyProvider } from './dify';
import { geminiProvider } from './gemini';
import { ollamaProvider } from './ollama';
import { openaiProvider } from './openai';
import { tencentProvider } from './tencent';
import { vertexProvider } from './vertex';
import { xunfeiProvider } from './xunfei';
import { zhipuProvider } from './zhipu';
import {
  aliProvider,
  baiduV2Provider,
  cloudflareProvider,
  customProvider,
  deepseekProvider,
  jinaProvider,
  minimaxProvider,
  mistralProvider,
  mokaaiProvider,
  openaiCompatibleProvider,
  perplexityProvider,
  siliconflowProvider,
  volcengineProvider,
  xaiProvider,
  zhipu4vProvider,
} from './openai-compatible/families';
import type { Provider, RelayMode } from './types';

const PROVIDERS: Partial<Record<ChannelFamily, Provider>> = {
  openai: openaiProvider,
  'openai-compatible': openaiCompatibleProvider,
  azure: azureProvider,
  baidu: baiduProvider,
  custom: customProvider,
  claude: claudeProvider,
  gemini: geminiProvider,
  aws: bedrockProvider,
  vertex: vertexProvider,
  tencent: tencentProvider,
  xunfei: xunfeiProvider,
  zhipu: zhipuProvider,
  ollama: ollamaProvider,
  deepseek: deepseekProvider,
  xai: xaiProvider,
  mistral: mistralProvider,
  perplexity: perplexityProvider,
  siliconflow: siliconflowProvider,
  volcengine: volcengineProvider,
  minimax: minimaxProvider,
  ali: aliProvider,
  'baidu-v2': baiduV2Provider,
  'zhipu-4v': zhipu4vProvider,
  jina: jinaProvider,
  cloudflare: cloudflareProvider,
  cohere: cohereProvider,
  dify: difyProvider,
  mokaai: mokaaiProvider,
  aiproxy: aiproxyProvider,
};

export function providerForFamily(family: ChannelFamily): Provider | undefined {
  return PROVIDERS[family];
}

/** The provider of a channel type (unknown ids fall back to the OpenAI family, as in the reference). */
export function providerForChannelType(type: number): Provider | undefined {
  return PROVIDERS[channelFamily(type)];
}

/**
 * The provider of one request: the channel type's, narrowed to the upstream model's wire
 * format where the family has several (Bedrock, Vertex).
 */
export function providerFor(type: number, upstreamModel: string): Provider | undefined {
  const provider = PROVIDERS[channelFamily(type)];
  return provider?.forModel ? provider.forModel(upstreamModel) : provider;
}

/** Whether a channel type can serve a relay mode at all. */
export function channelTypeSupports(type: number, mode: RelayMode): boolean {
  return providerForChannelType(type)?.modes.has(mode) ?? false;
}

export type { Provider } from './types';
