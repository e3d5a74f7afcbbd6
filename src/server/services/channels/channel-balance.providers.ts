/**
 * How each provider reports a channel's remaining balance (docs/channels.md#balance). Every
 * call sends the channel key (Bearer, or AIProxy's Api-Key header), waits 10 seconds at most
 * and answers a number in the provider's currency; failures are AppErrors with the
 * reference's messages. Hosts: the channel's base URL when set (the reference uses it for
 * OpenAI and Custom; for the fixed-host providers it lets an operator go through a proxy and
 * the tests reach their fakes), else the provider's own address. A channel with a proxy is
 * read through it (`dispatcher`).
 */
import { request, type Dispatcher } from 'undici';
import { CHANNEL_TYPE } from '../../../shared/channel-types';
import { AppError } from '../../errors';
import { firstKey } from './upstream-models.fetcher';

export const BALANCE_TIMEOUT_MS = 10_000;
export const MSG_BALANCE = {
  notImplemented: '尚未实现',
  status: (code: number) => `status code: ${code}`,
  failed: '请求上游地址失败',
  noCny: 'currency CNY not found',
  providerError: (code: unknown, message: unknown) => `code: ${String(code)}, message: ${String(message ?? '')}`,
} as const;

export interface BalanceTarget {
  type: number;
  /** The channel's own base URL ('' when unset). */
  baseUrl: string;
  key: string;
  /** The channel's proxy dispatcher (channel-proxy.ts); undefined: direct. */
  dispatcher?: Dispatcher;
  /** Cancels the read (the server closes). */
  signal?: AbortSignal;
}

type Json = Record<string, unknown>;

/** One GET of a balance API, the way this channel reaches its provider. */
type GetJson = (url: string, headers: Record<string, string>) => Promise<Json>;

function trimmed(base: string): string {
  return base.trim().replace(/\/+$/, '');
}

async function getJson({ dispatcher, signal }: BalanceTarget, url: string, headers: Record<string, string>): Promise<Json> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    const timeout = AbortSignal.timeout(BALANCE_TIMEOUT_MS);
    response = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...headers },
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      ...(dispatcher ? { dispatcher } : {}),
    });
  } catch {
    // The transport error would name the upstream address: the reference's mask instead.
    throw new AppError(MSG_BALANCE.failed);
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new AppError(MSG_BALANCE.status(response.statusCode));
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.body.text());
  } catch (err) {
    throw new AppError(err instanceof Error ? err.message : String(err));
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError(`unexpected balance reply`);
  return body as Json;
}

function num(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new AppError(`unexpected balance value: ${String(value)}`);
  return n;
}

function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** YYYY-MM-DD in local time, as the reference formats its dates. */
function day(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** OpenAI's dashboard billing: hard limit (USD) minus this period's usage (cents). */
async function openaiBalance(getJson: GetJson, base: string, key: string, now = new Date()): Promise<number> {
  const subscription = await getJson(`${base}/v1/dashboard/billing/subscription`, bearer(key));
  // Without a payment method the credit spans the last 100 days, else the current month.
  const start = subscription.has_payment_method ? `${day(now).slice(0, 7)}-01` : day(new Date(now.getTime() - 100 * 86_400_000));
  const usage = await getJson(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${day(now)}`, bearer(key));
  return num(subscription.hard_limit_usd) - num(usage.total_usage) / 100;
}

async function aiproxyBalance(getJson: GetJson, base: string, key: string): Promise<number> {
  const body = await getJson(`${base}/api/report/getUserOverview`, { 'api-key': key });
  if (body.success !== true) throw new AppError(MSG_BALANCE.providerError(body.error_code, body.message));
  return num((body.data as Json | undefined)?.totalPoints);
}

async function creditGrants(getJson: GetJson, base: string, key: string, field: 'total_remaining' | 'total_available'): Promise<number> {
  const body = await getJson(`${base}/dashboard/billing/credit_grants`, bearer(key));
  return num(body[field]);
}

async function siliconflowBalance(getJson: GetJson, base: string, key: string): Promise<number> {
  const body = await getJson(`${base}/v1/user/info`, bearer(key));
  if (body.code !== 20000) throw new AppError(MSG_BALANCE.providerError(body.code, body.message));
  return num((body.data as Json | undefined)?.totalBalance);
}

async function deepseekBalance(getJson: GetJson, base: string, key: string): Promise<number> {
  const body = await getJson(`${base}/user/balance`, bearer(key));
  const infos = Array.isArray(body.balance_infos) ? (body.balance_infos as Json[]) : [];
  const cny = infos.find((i) => i && i.currency === 'CNY');
  if (!cny) throw new AppError(MSG_BALANCE.noCny);
  return num(cny.total_balance);
}

interface BalanceSource {
  /** Used when the channel has no base URL ('' = the channel must have one). */
  host: string;
  read(getJson: GetJson, base: string, key: string): Promise<number>;
}

const SOURCES: Record<number, BalanceSource> = {
  [CHANNEL_TYPE.openai]: { host: 'https://api.openai.com', read: (get, base, key) => openaiBalance(get, base, key) },
  [CHANNEL_TYPE.custom]: { host: '', read: (get, base, key) => openaiBalance(get, base, key) },
  [CHANNEL_TYPE.aiProxy]: { host: 'https://aiproxy.io', read: aiproxyBalance },
  [CHANNEL_TYPE.api2gpt]: { host: 'https://api.api2gpt.com', read: (get, base, key) => creditGrants(get, base, key, 'total_remaining') },
  [CHANNEL_TYPE.aigc2d]: { host: 'https://api.aigc2d.com', read: (get, base, key) => creditGrants(get, base, key, 'total_available') },
  [CHANNEL_TYPE.siliconflow]: { host: 'https://api.siliconflow.cn', read: siliconflowBalance },
  [CHANNEL_TYPE.deepseek]: { host: 'https://api.deepseek.com', read: deepseekBalance },
};

/** The channel's balance as its provider reports it; `尚未实现` for types without one. */
export async function fetchBalance(target: BalanceTarget): Promise<number> {
  const source = SOURCES[target.type];
  if (!source) throw new AppError(MSG_BALANCE.notImplemented);
  const base = trimmed(target.baseUrl) || source.host;
  if (!/^https?:\/\//i.test(base)) throw new AppError(MSG_BALANCE.failed);
  return source.read((url, headers) => getJson(target, url, headers), base, firstKey(target.key));
}
