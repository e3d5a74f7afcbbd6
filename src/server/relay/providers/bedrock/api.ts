/**
 * AWS Bedrock's channel key, model ids and endpoints. The key is `AK|SK|region` (SigV4 with an
 * access key), or `apiKey|region` (a Bedrock API key, sent as a Bearer token).
 */
import { joinUrl } from '../common/urls';
import { ChannelKeyError, type Target } from '../types';

export type BedrockKey = { kind: 'sigv4'; accessKeyId: string; secretAccessKey: string; region: string } | { kind: 'api-key'; apiKey: string; region: string };

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

export function bedrockKey(key: string): BedrockKey {
  const parts = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  const region = parts.at(-1) ?? '';
  if ((parts.length === 3 || parts.length === 2) && parts.every(Boolean) && REGION.test(region)) {
    return parts.length === 3 ? { kind: 'sigv4', accessKeyId: parts[0], secretAccessKey: parts[1], region } : { kind: 'api-key', apiKey: parts[0], region };
  }
  throw new ChannelKeyError('the AWS channel key must be AccessKey|SecretAccessKey|Region (or ApiKey|Region), e.g. AKIA…|…|us-east-1');
}

/** Region groups of cross-region inference: a model id gets this prefix when it is offered there. */
const CROSS_REGION_PREFIX: Record<string, string> = { us: 'us', eu: 'eu', ap: 'apac' };

/** Client model names -> Bedrock model ids, and the region groups offering cross-region inference. */
const MODEL_IDS: Record<string, { id: string; crossRegion: readonly string[] }> = {
  'claude-instant-1.2': { id: 'anthropic.claude-instant-v1', crossRegion: [] },
  'claude-2.0': { id: 'anthropic.claude-v2', crossRegion: [] },
  'claude-2.1': { id: 'anthropic.claude-v2:1', crossRegion: [] },
  'claude-3-sonnet-20240229': { id: 'anthropic.claude-3-sonnet-20240229-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'claude-3-opus-20240229': { id: 'anthropic.claude-3-opus-20240229-v1:0', crossRegion: ['us'] },
  'claude-3-haiku-20240307': { id: 'anthropic.claude-3-haiku-20240307-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'claude-3-5-sonnet-20240620': { id: 'anthropic.claude-3-5-sonnet-20240620-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'claude-3-5-sonnet-20241022': { id: 'anthropic.claude-3-5-sonnet-20241022-v2:0', crossRegion: ['us', 'ap'] },
  'claude-3-5-haiku-20241022': { id: 'anthropic.claude-3-5-haiku-20241022-v1:0', crossRegion: ['us'] },
  'claude-3-7-sonnet-20250219': { id: 'anthropic.claude-3-7-sonnet-20250219-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'claude-sonnet-4-20250514': { id: 'anthropic.claude-sonnet-4-20250514-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'claude-opus-4-20250514': { id: 'anthropic.claude-opus-4-20250514-v1:0', crossRegion: ['us'] },
  'claude-opus-4-1-20250805': { id: 'anthropic.claude-opus-4-1-20250805-v1:0', crossRegion: ['us'] },
  'claude-sonnet-4-5-20250929': { id: 'anthropic.claude-sonnet-4-5-20250929-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'claude-haiku-4-5-20251001': { id: 'anthropic.claude-haiku-4-5-20251001-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'claude-opus-4-5-20251101': { id: 'anthropic.claude-opus-4-5-20251101-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'nova-micro-v1:0': { id: 'amazon.nova-micro-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'nova-lite-v1:0': { id: 'amazon.nova-lite-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'nova-pro-v1:0': { id: 'amazon.nova-pro-v1:0', crossRegion: ['us', 'eu', 'ap'] },
  'nova-premier-v1:0': { id: 'amazon.nova-premier-v1:0', crossRegion: ['us'] },
};

/**
 * The Bedrock model id of a (mapped) model name in the key's region: the table's id, with the
 * region group's prefix (`us.`, `eu.`, `apac.`) where cross-region inference offers it there;
 * any other name is taken as a Bedrock id already (`meta.llama3-1-70b-instruct-v1:0`).
 */
export function bedrockModelId(model: string, region: string): string {
  const known = MODEL_IDS[model];
  if (!known) return model;
  const group = region.split('-')[0];
  return known.crossRegion.includes(group) ? `${CROSS_REGION_PREFIX[group]}.${known.id}` : known.id;
}

/**
 * Claude models speak Messages on Bedrock (InvokeModel); the other families the Converse API.
 * Names (`claude-…`) and Bedrock ids (`anthropic.claude-…`, `us.anthropic.claude-…`) alike.
 */
export function isClaudeModel(model: string): boolean {
  return model.startsWith('claude') || model.includes('anthropic.claude');
}

export type BedrockAction = 'invoke' | 'invoke-with-response-stream' | 'converse' | 'converse-stream';

/** `{base}/model/{modelId}/{action}`; base: the channel's base URL, else the region's runtime endpoint. */
export function bedrockUrl(target: Target, region: string, modelId: string, action: BedrockAction): string {
  const base = target.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`;
  return joinUrl(base, `/model/${encodeURIComponent(modelId)}/${action}`);
}

export function bedrockHeaders(stream: boolean): Record<string, string> {
  return { 'content-type': 'application/json', accept: stream ? 'application/vnd.amazon.eventstream' : 'application/json' };
}
