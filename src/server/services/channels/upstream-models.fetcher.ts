/**
 * Reads an upstream's model list: `GET {base}/v1/models` with `Authorization: Bearer <key>`
 * (Gemini: its OpenAI-compatible `/v1beta/openai/models`, ids without the `models/` prefix),
 * 10 seconds at most. Failures carry the reference's messages; the upstream address never
 * appears in them.
 */
import { request, type Dispatcher } from 'undici';
import { AppError } from '../../errors';
import { channelFamily, effectiveBaseUrl } from '../../../shared/channel-types';

export const FETCH_MODELS_TIMEOUT_MS = 10_000;
export const MSG_FETCH = {
  failed: '获取模型列表失败',
  keyRequired: '请填写密钥',
  status: (code: number) => `status code: ${code}`,
  parse: (detail: string) => `解析响应失败: ${detail}`,
} as const;

export interface ModelListTarget {
  type: number;
  /** The channel's own base URL; empty uses the type default. */
  baseUrl: string | null;
  /** A channel key; only its first line is used. */
  key: string;
  /** The channel's proxy dispatcher (channel-proxy.ts); undefined: direct. */
  dispatcher?: Dispatcher;
}

/** The first line of a key, trimmed (batch keys are one per line). */
export function firstKey(key: string): string {
  return (key.trim().split('\n')[0] ?? '').trim();
}

function modelListUrl(type: number, base: string): string {
  return channelFamily(type) === 'gemini' ? `${base}/v1beta/openai/models` : `${base}/v1/models`;
}

function parseModelIds(text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new AppError(MSG_FETCH.parse((err as Error).message));
  }
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) throw new AppError(MSG_FETCH.parse('no data list in the reply'));
  const ids = data
    .map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id !== '')
    .map((id) => id.replace(/^models\//, ''));
  return [...new Set(ids)];
}

export async function fetchUpstreamModels(target: ModelListTarget): Promise<string[]> {
  const key = firstKey(target.key);
  if (!key) throw new AppError(MSG_FETCH.keyRequired);
  const base = effectiveBaseUrl(target.type, target.baseUrl);
  if (!/^https?:\/\//i.test(base)) throw new AppError(`${MSG_FETCH.failed}: Base URL`);
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(modelListUrl(target.type, base), {
      method: 'GET',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_MODELS_TIMEOUT_MS),
      ...(target.dispatcher ? { dispatcher: target.dispatcher } : {}),
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    throw new AppError(`${MSG_FETCH.failed}: ${timedOut ? '请求超时' : '请求上游地址失败'}`);
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new AppError(MSG_FETCH.status(response.statusCode));
  }
  let text: string;
  try {
    text = await response.body.text();
  } catch {
    throw new AppError(`${MSG_FETCH.failed}: 请求超时`);
  }
  return parseModelIds(text);
}
