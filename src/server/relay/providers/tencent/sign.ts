/**
 * Tencent Cloud API 3.0 signature (TC3-HMAC-SHA256): the canonical request over the method,
 * `/`, the signed headers (content-type, host, x-tc-action) and the SHA-256 of the body;
 * the key derived from `TC3` + SecretKey through the UTC date, the service and `tc3_request`.
 */
import { createHash, createHmac } from 'node:crypto';
import type { UpstreamRequest } from '../types';
import { TENCENT_ACTION, TENCENT_SERVICE, TENCENT_VERSION, type TencentKey } from './api';

const ALGORITHM = 'TC3-HMAC-SHA256';
const SIGNED_HEADERS = 'content-type;host;x-tc-action';

function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** The Authorization value of a request to `host` with this content type, action and body at `timestamp` (seconds). */
export function tc3Authorization(key: TencentKey, args: { host: string; contentType: string; action: string; body: string | Uint8Array; timestamp: number; service?: string }): string {
  const service = args.service ?? TENCENT_SERVICE;
  const date = new Date(args.timestamp * 1000).toISOString().slice(0, 10);
  const canonicalHeaders = `content-type:${args.contentType}\nhost:${args.host}\nx-tc-action:${args.action.toLowerCase()}\n`;
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, SIGNED_HEADERS, sha256Hex(args.body)].join('\n');
  const scope = `${date}/${service}/tc3_request`;
  const stringToSign = [ALGORITHM, String(args.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${key.secretKey}`, date), service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `${ALGORITHM} Credential=${key.secretId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`;
}

/** The request with Tencent's headers and its signature over the final body. */
export function signTencentRequest(request: UpstreamRequest, key: TencentKey, now = Date.now()): UpstreamRequest {
  const timestamp = Math.floor(now / 1000);
  const body = typeof request.body === 'string' || request.body instanceof Uint8Array ? request.body : '';
  const contentType = request.headers['content-type'] ?? 'application/json';
  const authorization = tc3Authorization(key, { host: new URL(request.url).host, contentType, action: TENCENT_ACTION, body, timestamp });
  return {
    ...request,
    headers: { ...request.headers, 'content-type': contentType, 'x-tc-action': TENCENT_ACTION, 'x-tc-version': TENCENT_VERSION, 'x-tc-timestamp': String(timestamp), authorization },
  };
}
