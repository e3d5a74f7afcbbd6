/**
 * Xunfei Spark (type 18): the key is `AppId|APISecret|APIKey`, the API version in the channel's
 * `other` (or a model named `SparkDesk-v3.5`), each version with its own `domain`. The answer
 * comes over a WebSocket at `wss://spark-api.xf-yun.com/{version}/chat`, whose URL carries the
 * signature: `host`, `date` and an `authorization` made with HMAC-SHA256 of the API secret.
 */
import { createHmac } from 'node:crypto';
import { XUNFEI_DEFAULT_VERSION } from '../../../../shared/channel-types';
import { ChannelKeyError, type Target } from '../types';

export const XUNFEI_DEFAULT_BASE = 'wss://spark-api.xf-yun.com';

export interface XunfeiKey {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

export function xunfeiKey(key: string): XunfeiKey {
  const parts = key.trim().split('|');
  if (parts.length !== 3 || parts.some((part) => !part)) throw new ChannelKeyError('the Xunfei channel key must be AppId|APISecret|APIKey');
  return { appId: parts[0]!, apiSecret: parts[1]!, apiKey: parts[2]! };
}

/** The API version: a `-vX.Y` model suffix, else the channel's `other`, else the console default. */
export function xunfeiVersion(target: Target): string {
  const suffix = /-(v\d+(?:\.\d+)?)$/.exec(target.upstreamModel)?.[1];
  return suffix ?? (target.other.trim() || XUNFEI_DEFAULT_VERSION);
}

const DOMAINS: Record<string, string> = { 'v1.1': 'lite', 'v2.1': 'generalv2', 'v3.1': 'generalv3', 'v3.5': 'generalv3.5', 'v4.0': '4.0Ultra' };

export function xunfeiDomain(version: string): string {
  return DOMAINS[version] ?? `general${version}`;
}

/** `{base}/{version}/chat`, the base as a WebSocket origin (`https` -> `wss`, `http` -> `ws`). */
export function xunfeiUrl(target: Target, version: string): string {
  const base = (target.baseUrl || XUNFEI_DEFAULT_BASE).replace(/^http(s?):\/\//, 'ws$1://').replace(/\/+$/, '');
  return `${base}/${encodeURIComponent(version)}/chat`;
}

/** The URL with Xunfei's signature: HMAC-SHA256 over `host`, `date` and the request line. */
export function signXunfeiUrl(raw: string, key: XunfeiKey, now = new Date()): string {
  const url = new URL(raw);
  const date = now.toUTCString();
  const signed = `host: ${url.host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`;
  const signature = createHmac('sha256', key.apiSecret).update(signed).digest('base64');
  const authorization = Buffer.from(`api_key="${key.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`).toString('base64');
  url.search = new URLSearchParams({ authorization, date, host: url.host }).toString();
  return url.toString();
}
