/**
 * The channel type table: every numeric type id of the reference implementation, with the
 * console name, the default base URL, whether the console shows extra fields for it (and the
 * channel form's inputs of its own, with their texts), the adaptor family the relay uses, and
 * the default model list offered when a channel is made.
 *
 * Pure data and tiny helpers: the console and the server both import it, so there is no
 * second copy of this table anywhere. Ids 28–30 and 32 do not exist in the reference; id 11
 * (Google PaLM2) is retired (see `RETIRED_CHANNEL_TYPES`).
 */
import type { Bilingual } from './resources/label';

/** Which relay adaptor handles a type. `unsupported` types can be stored but not relayed. */
export type ChannelFamily =
  | 'openai'
  | 'openai-compatible'
  | 'azure'
  | 'custom'
  | 'claude'
  | 'gemini'
  | 'vertex'
  | 'aws'
  | 'ollama'
  | 'deepseek'
  | 'baidu'
  | 'baidu-v2'
  | 'zhipu'
  | 'zhipu-4v'
  | 'ali'
  | 'xunfei'
  | 'tencent'
  | 'perplexity'
  | 'cohere'
  | 'minimax'
  | 'dify'
  | 'aiproxy'
  | 'jina'
  | 'cloudflare'
  | 'siliconflow'
  | 'mistral'
  | 'mokaai'
  | 'volcengine'
  | 'xai'
  | 'midjourney'
  | 'suno'
  | 'unsupported';

export interface ChannelType {
  id: number;
  /** The console name (English or a brand name). */
  name: string;
  /** The Chinese console label where it differs from `name`. */
  label?: string;
  /** Used when a channel's base_url is empty; '' when the operator must give one. */
  defaultBaseUrl: string;
  /** The console shows type-specific fields (Azure version, Xunfei version, region ...). */
  hasExtraFields: boolean;
  family: ChannelFamily;
  /** `owned_by` of this type's models in the model catalogue. */
  owner: string;
  /** Offered when a channel of this type is created; also the built-in model catalogue. */
  defaultModels: readonly string[];
  /** Types kept only so that old databases still open; the console need not offer them. */
  legacy?: boolean;
  /**
   * The channel form's type-specific inputs, each with this type's own texts in both console
   * languages (resources/channels.ts shows them when the type is chosen).
   */
  form?: ChannelFormInputs;
}

/** A type-specific input's label and placeholder. */
export interface ChannelFormInputTexts {
  label: Bilingual;
  placeholder: Bilingual;
}

export interface ChannelFormInputs {
  /** `other`, whose meaning depends on the type: API version, region, plugin … */
  other?: ChannelFormInputTexts;
  /** The base URL, where the type's address is more than the optional proxy. */
  baseUrl?: ChannelFormInputTexts;
  /** The key's format, as the key's placeholder. */
  key?: Bilingual;
  /** A help beside the key (Vertex AI's one-JSON key). */
  keyHelp?: Bilingual;
}

/** The types whose form has type-specific inputs, with them (the console's hints). */
export function typesWithFormInputs(): Array<{ type: number; inputs: ChannelFormInputs }> {
  return CHANNEL_TYPES.flatMap((t) => (t.form ? [{ type: t.id, inputs: t.form }] : []));
}

/**
 * The type ids the code names (the reference's numbers, stored in channels.type): code compares
 * a channel's type with these, never with a bare number.
 */
export const CHANNEL_TYPE = {
  openai: 1,
  midjourney: 2,
  azure: 3,
  ollama: 4,
  midjourneyPlus: 5,
  openaiMax: 6,
  ohMyGpt: 7,
  custom: 8,
  ails: 9,
  aiProxy: 10,
  palm: 11,
  api2gpt: 12,
  aigc2d: 13,
  anthropic: 14,
  baidu: 15,
  zhipu: 16,
  ali: 17,
  xunfei: 18,
  ai360: 19,
  openRouter: 20,
  aiProxyLibrary: 21,
  fastGpt: 22,
  tencent: 23,
  gemini: 24,
  moonshot: 25,
  zhipu4v: 26,
  perplexity: 27,
  lingyiwanwu: 31,
  aws: 33,
  cohere: 34,
  minimax: 35,
  suno: 36,
  dify: 37,
  jina: 38,
  cloudflare: 39,
  siliconflow: 40,
  vertex: 41,
  mistral: 42,
  deepseek: 43,
  mokaai: 44,
  volcengine: 45,
  baiduV2: 46,
  xinference: 47,
  xai: 48,
} as const;

export const CHANNEL_STATUS = { enabled: 1, disabled: 2, autoDisabled: 3 } as const;

/** Xunfei stores its API version in `other`; the console default. */
export const XUNFEI_DEFAULT_VERSION = 'v2.1';

const OPENAI_MODELS = [
  'gpt-3.5-turbo', 'gpt-3.5-turbo-0125', 'gpt-3.5-turbo-1106', 'gpt-3.5-turbo-16k', 'gpt-3.5-turbo-instruct',
  'gpt-4', 'gpt-4-0613', 'gpt-4-32k', 'gpt-4-turbo', 'gpt-4-turbo-2024-04-09', 'gpt-4-1106-preview', 'gpt-4-0125-preview',
  'chatgpt-4o-latest', 'gpt-4o', 'gpt-4o-2024-05-13', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20', 'gpt-4o-mini', 'gpt-4o-mini-2024-07-18',
  'gpt-4.5-preview', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano',
  'o1', 'o1-2024-12-17', 'o1-mini', 'o1-preview', 'o3-mini', 'o3-mini-high', 'o3-mini-medium', 'o3-mini-low',
  'gpt-4o-audio-preview', 'gpt-4o-realtime-preview', 'gpt-4o-mini-realtime-preview',
  'text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002',
  'text-moderation-latest', 'text-moderation-stable', 'omni-moderation-latest',
  'davinci-002', 'babbage-002', 'dall-e-2', 'dall-e-3', 'whisper-1', 'tts-1', 'tts-1-1106', 'tts-1-hd', 'tts-1-hd-1106',
] as const;

const CLAUDE_MODELS = [
  'claude-instant-1.2', 'claude-2', 'claude-2.0', 'claude-2.1',
  'claude-3-haiku-20240307', 'claude-3-sonnet-20240229', 'claude-3-opus-20240229',
  'claude-3-5-haiku-20241022', 'claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022',
  'claude-3-7-sonnet-20250219', 'claude-3-7-sonnet-20250219-thinking',
] as const;

const GEMINI_MODELS = [
  'gemini-1.5-pro', 'gemini-1.5-flash', 'gemini-1.5-flash-8b', 'gemini-2.0-flash', 'gemini-2.0-flash-lite',
  'gemini-2.0-flash-thinking-exp', 'gemini-2.5-pro-exp-03-25', 'text-embedding-004', 'imagen-3.0-generate-002',
] as const;

/** The drawing actions billed as models by the Midjourney relay. */
const MIDJOURNEY_MODELS = [
  'mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_modal', 'mj_zoom', 'mj_shorten', 'mj_high_variation',
  'mj_low_variation', 'mj_pan', 'mj_inpaint', 'mj_custom_zoom', 'mj_describe', 'mj_upscale', 'swap_face', 'mj_upload',
  'mj_video', 'mj_edits',
] as const;

const DEEPSEEK_MODELS = ['deepseek-chat', 'deepseek-reasoner'] as const;

function openaiCompatible(id: number, name: string, defaultBaseUrl: string, extra: Partial<ChannelType> = {}): ChannelType {
  return { id, name, defaultBaseUrl, hasExtraFields: false, family: 'openai-compatible', owner: 'openai', defaultModels: OPENAI_MODELS, ...extra };
}

export const CHANNEL_TYPES: readonly ChannelType[] = [
  { id: CHANNEL_TYPE.openai, name: 'OpenAI', defaultBaseUrl: 'https://api.openai.com', hasExtraFields: false, family: 'openai', owner: 'openai', defaultModels: OPENAI_MODELS },
  {
    id: CHANNEL_TYPE.midjourney, name: 'Midjourney Proxy', defaultBaseUrl: 'https://oa.api2d.net', hasExtraFields: true, family: 'midjourney', owner: 'midjourney', defaultModels: MIDJOURNEY_MODELS,
    form: {
      baseUrl: { label: { zh: 'Midjourney Proxy 地址', en: 'Midjourney Proxy address' }, placeholder: { zh: '请输入 Midjourney Proxy 的地址，例如：https://mj.example.com', en: 'e.g. https://mj.example.com' } },
      key: { zh: '请输入 mj-api-secret，一行一个', en: 'mj-api-secret, one per line' },
    },
  },
  {
    id: CHANNEL_TYPE.azure, name: 'Azure OpenAI', defaultBaseUrl: '', hasExtraFields: true, family: 'azure', owner: 'openai', defaultModels: OPENAI_MODELS,
    form: {
      other: { label: { zh: '默认 API 版本', en: 'Default API version' }, placeholder: { zh: '请输入默认 API 版本，例如：2024-12-01-preview', en: 'e.g. 2024-12-01-preview' } },
      baseUrl: { label: { zh: 'AZURE_OPENAI_ENDPOINT', en: 'AZURE_OPENAI_ENDPOINT' }, placeholder: { zh: '请输入 AZURE_OPENAI_ENDPOINT，例如：https://docs-test-001.openai.azure.com', en: 'Your AZURE_OPENAI_ENDPOINT, e.g. https://docs-test-001.openai.azure.com' } },
    },
  },
  { id: CHANNEL_TYPE.ollama, name: 'Ollama', defaultBaseUrl: 'http://localhost:11434', hasExtraFields: false, family: 'ollama', owner: 'ollama', defaultModels: ['llama3.1', 'llama3.2', 'qwen2.5', 'deepseek-r1', 'nomic-embed-text'] },
  {
    id: CHANNEL_TYPE.midjourneyPlus, name: 'Midjourney Proxy Plus', defaultBaseUrl: 'https://api.openai-sb.com', hasExtraFields: true, family: 'midjourney', owner: 'midjourney', defaultModels: MIDJOURNEY_MODELS,
    form: {
      baseUrl: { label: { zh: 'Midjourney Proxy Plus 地址', en: 'Midjourney Proxy Plus address' }, placeholder: { zh: '请输入 Midjourney Proxy Plus 的地址，例如：https://mj.example.com', en: 'e.g. https://mj.example.com' } },
      key: { zh: '请输入 mj-api-secret，一行一个', en: 'mj-api-secret, one per line' },
    },
  },
  openaiCompatible(CHANNEL_TYPE.openaiMax, 'OpenAI Max', 'https://api.openaimax.com', { legacy: true }),
  openaiCompatible(CHANNEL_TYPE.ohMyGpt, 'OhMyGPT', 'https://api.ohmygpt.com', { legacy: true }),
  {
    id: CHANNEL_TYPE.custom, name: 'Custom', label: '自定义渠道', defaultBaseUrl: '', hasExtraFields: true, family: 'custom', owner: 'custom', defaultModels: OPENAI_MODELS,
    form: {
      baseUrl: { label: { zh: '完整的 Base URL', en: 'Full base URL' }, placeholder: { zh: '请输入完整的请求地址，支持变量 {model}，例如：https://api.example.com/v1/chat/completions', en: 'The complete request URL, {model} is replaced, e.g. https://api.example.com/v1/chat/completions' } },
    },
  },
  openaiCompatible(CHANNEL_TYPE.ails, 'AILS', 'https://api.caipacity.com', { legacy: true }),
  openaiCompatible(CHANNEL_TYPE.aiProxy, 'AIProxy', 'https://api.aiproxy.io', { legacy: true }),
  openaiCompatible(CHANNEL_TYPE.api2gpt, 'API2GPT', 'https://api.api2gpt.com', { legacy: true }),
  openaiCompatible(CHANNEL_TYPE.aigc2d, 'AIGC2D', 'https://api.aigc2d.com', { legacy: true }),
  { id: CHANNEL_TYPE.anthropic, name: 'Anthropic Claude', defaultBaseUrl: 'https://api.anthropic.com', hasExtraFields: false, family: 'claude', owner: 'claude', defaultModels: CLAUDE_MODELS },
  {
    id: CHANNEL_TYPE.baidu, name: 'Baidu Qianfan', label: '百度文心千帆', defaultBaseUrl: 'https://aip.baidubce.com', hasExtraFields: true, family: 'baidu', owner: 'baidu',
    form: {
      key: { zh: '请按照如下格式输入：APIKey|SecretKey（或直接填写 access token），一行一个', en: 'APIKey|SecretKey (or an access token), one per line' },
    },
    defaultModels: ['ERNIE-4.0-8K', 'ERNIE-3.5-8K', 'ERNIE-Speed-8K', 'ERNIE-Speed-128K', 'ERNIE-Lite-8K', 'ERNIE-Tiny-8K', 'ERNIE-Character-8K', 'ERNIE-Functions-8K', 'Embedding-V1'],
  },
  {
    id: CHANNEL_TYPE.zhipu, name: 'Zhipu ChatGLM', label: '智谱 ChatGLM', defaultBaseUrl: 'https://open.bigmodel.cn', hasExtraFields: true, family: 'zhipu', owner: 'zhipu', defaultModels: ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite'],
    form: {
      key: { zh: '请按照如下格式输入：id.secret（智谱开放平台的 API Key），一行一个', en: 'id.secret (the API key of the Zhipu open platform), one per line' },
    },
  },
  {
    id: CHANNEL_TYPE.ali, name: 'Ali Qwen', label: '阿里通义千问', defaultBaseUrl: 'https://dashscope.aliyuncs.com', hasExtraFields: false, family: 'ali', owner: 'ali',
    form: {
      other: { label: { zh: '插件参数', en: 'Plugin' }, placeholder: { zh: '请输入插件参数，即 X-DashScope-Plugin 请求头的取值', en: 'Sent as the X-DashScope-Plugin header' } },
    },
    defaultModels: ['qwen-turbo', 'qwen-plus', 'qwen-max', 'qwen-max-longcontext', 'qwen-long', 'text-embedding-v1', 'text-embedding-v3'],
  },
  {
    id: CHANNEL_TYPE.xunfei, name: 'Xunfei Spark', label: '讯飞星火认知', defaultBaseUrl: '', hasExtraFields: true, family: 'xunfei', owner: 'xunfei',
    form: {
      other: { label: { zh: '模型版本', en: 'Model version' }, placeholder: { zh: '请输入星火大模型版本，注意是接口地址中的版本号，例如：v2.1（留空默认 v2.1）', en: 'The Spark API version in the endpoint path, e.g. v2.1 (empty: v2.1)' } },
      key: { zh: '请按照如下格式输入：APPID|APISecret|APIKey，一行一个', en: 'APPID|APISecret|APIKey, one per line' },
    },
    defaultModels: ['SparkDesk', 'SparkDesk-v1.1', 'SparkDesk-v2.1', 'SparkDesk-v3.1', 'SparkDesk-v3.5', 'SparkDesk-v4.0'],
  },
  {
    id: CHANNEL_TYPE.ai360, name: '360 Zhinao', label: '360 智脑', defaultBaseUrl: 'https://api.360.cn', hasExtraFields: false, family: 'openai-compatible', owner: '360',
    defaultModels: ['360GPT_S2_V9', 'embedding-bert-512-v1', 'embedding_s1_v1', 'semantic_similarity_s1_v1'],
  },
  {
    id: CHANNEL_TYPE.openRouter, name: 'OpenRouter', defaultBaseUrl: 'https://openrouter.ai/api', hasExtraFields: false, family: 'openai-compatible', owner: 'openrouter',
    defaultModels: ['openai/gpt-4o', 'openai/gpt-4o-mini', 'anthropic/claude-3.5-sonnet', 'google/gemini-2.0-flash-001', 'deepseek/deepseek-chat', 'meta-llama/llama-3.1-70b-instruct'],
  },
  {
    id: CHANNEL_TYPE.aiProxyLibrary, name: 'AI Proxy Library', label: '知识库：AI Proxy', defaultBaseUrl: 'https://api.aiproxy.io', hasExtraFields: true, family: 'aiproxy', owner: 'aiproxy', defaultModels: [],
    form: {
      other: { label: { zh: '知识库 ID', en: 'Knowledge base ID' }, placeholder: { zh: '请输入知识库 ID，例如：123456', en: 'e.g. 123456' } },
    },
  },
  {
    id: CHANNEL_TYPE.fastGpt, name: 'FastGPT', label: '知识库：FastGPT', defaultBaseUrl: 'https://fastgpt.run/api/openapi', hasExtraFields: true, family: 'openai-compatible', owner: 'fastgpt', defaultModels: [],
    form: {
      baseUrl: { label: { zh: '私有部署地址', en: 'Private deployment address' }, placeholder: { zh: '请输入私有部署地址，格式为：https://fastgpt.run/api/openapi', en: 'e.g. https://fastgpt.run/api/openapi' } },
    },
  },
  {
    id: CHANNEL_TYPE.tencent, name: 'Tencent Hunyuan', label: '腾讯混元', defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com', hasExtraFields: true, family: 'tencent', owner: 'tencent', defaultModels: ['hunyuan-lite', 'hunyuan-standard', 'hunyuan-standard-256K', 'hunyuan-pro', 'hunyuan-turbo'],
    form: {
      key: { zh: '请按照如下格式输入：AppId|SecretId|SecretKey，一行一个', en: 'AppId|SecretId|SecretKey, one per line' },
    },
  },
  { id: CHANNEL_TYPE.gemini, name: 'Google Gemini', defaultBaseUrl: 'https://generativelanguage.googleapis.com', hasExtraFields: false, family: 'gemini', owner: 'google gemini', defaultModels: GEMINI_MODELS },
  { id: CHANNEL_TYPE.moonshot, name: 'Moonshot', defaultBaseUrl: 'https://api.moonshot.cn', hasExtraFields: false, family: 'openai-compatible', owner: 'moonshot', defaultModels: ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'] },
  {
    id: CHANNEL_TYPE.zhipu4v, name: 'Zhipu GLM-4V', label: '智谱 GLM-4V', defaultBaseUrl: 'https://open.bigmodel.cn', hasExtraFields: false, family: 'zhipu-4v', owner: 'zhipu_4v',
    defaultModels: ['glm-4', 'glm-4v', 'glm-3-turbo', 'glm-4-alltools', 'glm-4-plus', 'glm-4-0520', 'glm-4-air', 'glm-4-airx', 'glm-4-long', 'glm-4-flash', 'glm-4v-plus', 'embedding-2', 'embedding-3'],
  },
  { id: CHANNEL_TYPE.perplexity, name: 'Perplexity', defaultBaseUrl: 'https://api.perplexity.ai', hasExtraFields: false, family: 'perplexity', owner: 'perplexity', defaultModels: ['sonar', 'sonar-pro', 'sonar-reasoning', 'sonar-reasoning-pro'] },
  {
    id: CHANNEL_TYPE.lingyiwanwu, name: '01.AI', label: '零一万物', defaultBaseUrl: 'https://api.lingyiwanwu.com', hasExtraFields: false, family: 'openai-compatible', owner: 'lingyiwanwu',
    defaultModels: ['yi-large', 'yi-medium', 'yi-vision', 'yi-medium-200k', 'yi-spark', 'yi-large-rag', 'yi-large-turbo', 'yi-lightning'],
  },
  {
    id: CHANNEL_TYPE.aws, name: 'AWS Claude', defaultBaseUrl: '', hasExtraFields: true, family: 'aws', owner: 'aws',
    form: {
      baseUrl: { label: { zh: '接口地址（可选）', en: 'Endpoint (optional)' }, placeholder: { zh: '留空则使用密钥所在地区的 Bedrock 运行时地址（https://bedrock-runtime.<region>.amazonaws.com）', en: "Empty: the Bedrock runtime of the key's region (https://bedrock-runtime.<region>.amazonaws.com)" } },
      key: { zh: '请按照如下格式输入：AccessKey|SecretAccessKey|Region，例如 AKIA…|wJalr…|us-east-1（或 Bedrock API 密钥：ApiKey|Region），一行一个', en: 'AccessKey|SecretAccessKey|Region, e.g. AKIA…|wJalr…|us-east-1 (or a Bedrock API key: ApiKey|Region), one per line' },
    },
    // Claude through InvokeModel; Amazon's Nova (and any Bedrock model id) through the Converse API.
    defaultModels: [...CLAUDE_MODELS.filter((m) => m !== 'claude-2' && !m.endsWith('-thinking')), 'nova-micro-v1:0', 'nova-lite-v1:0', 'nova-pro-v1:0'],
  },
  {
    id: CHANNEL_TYPE.cohere, name: 'Cohere', defaultBaseUrl: 'https://api.cohere.ai', hasExtraFields: false, family: 'cohere', owner: 'cohere',
    form: {
      key: { zh: 'Cohere API 密钥，一行一个', en: 'Cohere API key, one per line' },
    },
    defaultModels: ['command', 'command-light', 'command-r', 'command-r-plus', 'command-r-08-2024', 'command-r-plus-08-2024', 'rerank-english-v3.0', 'rerank-multilingual-v3.0'],
  },
  { id: CHANNEL_TYPE.minimax, name: 'MiniMax', defaultBaseUrl: 'https://api.minimax.chat', hasExtraFields: false, family: 'minimax', owner: 'minimax', defaultModels: ['abab6.5-chat', 'abab6.5s-chat', 'abab6-chat', 'abab5.5-chat', 'abab5.5s-chat'] },
  {
    id: CHANNEL_TYPE.suno, name: 'Suno API', defaultBaseUrl: '', hasExtraFields: true, family: 'suno', owner: 'suno', defaultModels: ['suno_music', 'suno_lyrics'],
    form: {
      baseUrl: { label: { zh: 'Suno API 地址', en: 'Suno API address' }, placeholder: { zh: '请输入到 /suno 前的路径，通常就是域名，例如：https://api.example.com', en: 'The path before /suno, usually the domain, e.g. https://api.example.com' } },
    },
  },
  {
    id: CHANNEL_TYPE.dify, name: 'Dify', defaultBaseUrl: 'https://api.dify.ai', hasExtraFields: false, family: 'dify', owner: 'dify', defaultModels: ['dify'],
    form: {
      baseUrl: { label: { zh: 'Dify API 地址', en: 'Dify API address' }, placeholder: { zh: 'https://api.dify.ai（默认）或自部署 Dify 的地址，不带 /v1', en: 'https://api.dify.ai (default) or your own Dify, without /v1' } },
      key: { zh: 'Dify 应用的 API 密钥（app-…），一行一个；由该应用作答，与模型名无关', en: "The Dify app's API key (app-…), one per line; the app behind it answers, whatever the model name" },
    },
  },
  { id: CHANNEL_TYPE.jina, name: 'Jina', defaultBaseUrl: 'https://api.jina.ai', hasExtraFields: false, family: 'jina', owner: 'jina', defaultModels: ['jina-clip-v1', 'jina-embeddings-v3', 'jina-reranker-v2-base-multilingual'] },
  {
    id: CHANNEL_TYPE.cloudflare, name: 'Cloudflare Workers AI', label: 'Cloudflare', defaultBaseUrl: 'https://api.cloudflare.com', hasExtraFields: true, family: 'cloudflare', owner: 'cloudflare',
    form: {
      other: { label: { zh: 'Account ID', en: 'Account ID' }, placeholder: { zh: '请输入 Account ID，例如：d6b5da8hk1awo8nap34ube6gh', en: 'e.g. d6b5da8hk1awo8nap34ube6gh' } },
    },
    defaultModels: [
      '@cf/meta/llama-3.1-8b-instruct', '@cf/meta/llama-3-8b-instruct', '@cf/meta/llama-2-7b-chat-fp16', '@cf/mistral/mistral-7b-instruct-v0.1',
      '@cf/qwen/qwen1.5-14b-chat-awq', '@cf/google/gemma-7b-it-lora', '@cf/microsoft/phi-2', '@cf/openchat/openchat-3.5-0106',
    ],
  },
  {
    id: CHANNEL_TYPE.siliconflow, name: 'SiliconFlow', label: 'SiliconCloud', defaultBaseUrl: 'https://api.siliconflow.cn', hasExtraFields: true, family: 'siliconflow', owner: 'siliconflow',
    defaultModels: ['deepseek-ai/DeepSeek-V3', 'deepseek-ai/DeepSeek-R1', 'Qwen/Qwen2.5-7B-Instruct', 'Qwen/Qwen2.5-72B-Instruct', 'THUDM/glm-4-9b-chat', 'BAAI/bge-m3', 'BAAI/bge-reranker-v2-m3'],
  },
  {
    id: CHANNEL_TYPE.vertex, name: 'Vertex AI', defaultBaseUrl: '', hasExtraFields: true, family: 'vertex', owner: 'vertex-ai',
    form: {
      other: { label: { zh: '部署地区', en: 'Region' }, placeholder: { zh: '请输入部署地区，例如：us-central1；或 JSON：{"default": "us-central1", "claude-3-5-sonnet-20240620": "europe-west1"}', en: 'e.g. us-central1, or JSON: {"default": "us-central1", "claude-3-5-sonnet-20240620": "europe-west1"}' } },
      baseUrl: { label: { zh: '接口地址（可选）', en: 'Endpoint (optional)' }, placeholder: { zh: '留空则使用各模型部署地区的 Vertex AI 地址（https://<region>-aiplatform.googleapis.com）', en: "Empty: the Vertex AI endpoint of each model's region (https://<region>-aiplatform.googleapis.com)" } },
      key: { zh: '请输入服务账号的完整 JSON 密钥文件（{"type": "service_account", "project_id": …, "private_key": …, "client_email": …}）', en: 'The service account\'s whole JSON key file ({"type": "service_account", "project_id": …, "private_key": …, "client_email": …})' },
      keyHelp: { zh: '一个服务账号的 JSON 密钥创建一个渠道（不会按行拆分）；部署地区填写在下方的“部署地区”中', en: 'The JSON key of one service account makes one channel (it is not split into lines); the region goes in the Region field below' },
    },
    // Chat models: Vertex's embeddings and Imagen use other APIs than Gemini's own, not relayed here.
    defaultModels: [...CLAUDE_MODELS.filter((m) => m.startsWith('claude-3')), ...GEMINI_MODELS.filter((m) => m.startsWith('gemini')), 'meta/llama3-405b-instruct-maas'],
  },
  {
    id: CHANNEL_TYPE.mistral, name: 'Mistral AI', defaultBaseUrl: 'https://api.mistral.ai', hasExtraFields: false, family: 'mistral', owner: 'mistral',
    defaultModels: ['open-mistral-7b', 'open-mixtral-8x7b', 'open-mixtral-8x22b', 'mistral-small-latest', 'mistral-medium-latest', 'mistral-large-latest', 'codestral-latest', 'mistral-embed'],
  },
  { id: CHANNEL_TYPE.deepseek, name: 'DeepSeek', defaultBaseUrl: 'https://api.deepseek.com', hasExtraFields: false, family: 'deepseek', owner: 'deepseek', defaultModels: DEEPSEEK_MODELS },
  {
    id: CHANNEL_TYPE.mokaai, name: 'MokaAI M3E', label: '嵌入模型：MokaAI M3E', defaultBaseUrl: 'https://api.moka.ai', hasExtraFields: false, family: 'mokaai', owner: 'mokaai', defaultModels: ['m3e-large', 'm3e-base', 'm3e-small'],
    form: {
      key: { zh: 'MokaAI API 密钥，一行一个', en: 'MokaAI API key, one per line' },
    },
  },
  {
    id: CHANNEL_TYPE.volcengine, name: 'VolcEngine Ark', label: '字节火山方舟、豆包、DeepSeek通用', defaultBaseUrl: 'https://ark.cn-beijing.volces.com', hasExtraFields: true, family: 'volcengine', owner: 'volcengine',
    form: {
      baseUrl: { label: { zh: 'API 地址', en: 'API address' }, placeholder: { zh: 'https://ark.cn-beijing.volces.com（默认）或 https://ark.ap-southeast.bytepluses.com', en: 'https://ark.cn-beijing.volces.com (default) or https://ark.ap-southeast.bytepluses.com' } },
    },
    defaultModels: ['Doubao-pro-128k', 'Doubao-pro-32k', 'Doubao-pro-4k', 'Doubao-lite-128k', 'Doubao-lite-32k', 'Doubao-lite-4k', 'Doubao-embedding', 'deepseek-r1', 'deepseek-v3'],
  },
  {
    id: CHANNEL_TYPE.baiduV2, name: 'Baidu Qianfan V2', label: '百度文心千帆V2', defaultBaseUrl: 'https://qianfan.baidubce.com', hasExtraFields: false, family: 'baidu-v2', owner: 'baidu_v2',
    defaultModels: ['ernie-4.0-8k-latest', 'ernie-4.0-turbo-8k', 'ernie-3.5-8k', 'ernie-speed-128k', 'ernie-lite-8k', 'deepseek-v3', 'deepseek-r1'],
  },
  { id: CHANNEL_TYPE.xinference, name: 'Xinference', defaultBaseUrl: '', hasExtraFields: false, family: 'openai-compatible', owner: 'xinference', defaultModels: ['bge-reranker-v2-m3', 'jina-reranker-v2'] },
  { id: CHANNEL_TYPE.xai, name: 'xAI', defaultBaseUrl: 'https://api.x.ai', hasExtraFields: false, family: 'xai', owner: 'xai', defaultModels: ['grok-3-beta', 'grok-3-mini-beta', 'grok-2', 'grok-2-vision', 'grok-beta'] },
];

const BY_ID = new Map(CHANNEL_TYPES.map((t) => [t.id, t]));

/**
 * Type ids taken out of the table because their upstream no longer exists, with the console
 * name their stored channels still show. They cannot be created and are never relayed (not
 * even by the OpenAI fallback of unknown ids: their keys mean nothing to OpenAI).
 */
export const RETIRED_CHANNEL_TYPES: ReadonlyMap<number, Pick<ChannelType, 'name' | 'label'>> = new Map([
  // Google shut the PaLM API down in 2024; Gemini (type 24) replaces it.
  [CHANNEL_TYPE.palm, { name: 'Google PaLM2 (retired)', label: 'Google PaLM2（已下线）' }],
]);

/** The type with this id, or undefined for ids the reference does not have. */
export function channelTypeById(id: number): ChannelType | undefined {
  return BY_ID.get(id);
}

export function isKnownChannelType(id: number): boolean {
  return BY_ID.has(id);
}

/** A channel's effective upstream address: its own base URL, else the type default. */
export function effectiveBaseUrl(type: number, baseUrl: string | null | undefined): string {
  const own = (baseUrl ?? '').trim().replace(/\/+$/, '');
  return own || (BY_ID.get(type)?.defaultBaseUrl ?? '');
}

/** Unlisted ids fall back to the OpenAI family, as in the reference. */
export function channelFamily(type: number): ChannelFamily {
  if (RETIRED_CHANNEL_TYPES.has(type)) return 'unsupported';
  return BY_ID.get(type)?.family ?? 'openai';
}

export interface CatalogueModel {
  id: string;
  owned_by: string;
}

/** Every default model once, owned by the first type (lowest id) that lists it. */
export function modelCatalogue(): CatalogueModel[] {
  const seen = new Map<string, string>();
  for (const t of CHANNEL_TYPES) {
    for (const m of t.defaultModels) if (!seen.has(m)) seen.set(m, t.owner);
  }
  return [...seen].map(([id, owned_by]) => ({ id, owned_by }));
}

/** GET /api/models: type id → default models. */
export function defaultModelsByType(): Record<number, string[]> {
  return Object.fromEntries(CHANNEL_TYPES.map((t) => [t.id, [...t.defaultModels]]));
}
