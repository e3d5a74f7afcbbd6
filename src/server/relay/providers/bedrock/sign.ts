/**
 * Bedrock's `authorize` step: AWS Signature Version 4 over the final request (method, path,
 * query, headers with the host, and the body's SHA-256), by `@smithy/signature-v4`, the
 * signer of AWS's own SDK; a Bedrock API key goes as a Bearer token instead.
 */
import { packageOnFirstUse } from '../../../plumbing/on-first-use';
import type { UpstreamRequest } from '../types';
import type { BedrockKey } from './api';

/** Bedrock runtime's signing name (its endpoints are `bedrock-runtime.<region>…`). */
export const SIGNING_SERVICE = 'bedrock';

const smithySerde = packageOnFirstUse<typeof import('@smithy/core/serde')>('@smithy/core/serde');
const signatureV4 = packageOnFirstUse<typeof import('@smithy/signature-v4')>('@smithy/signature-v4');

export async function signBedrockRequest(up: UpstreamRequest, key: BedrockKey): Promise<UpstreamRequest> {
  if (key.kind === 'api-key') return { ...up, headers: { ...up.headers, authorization: `Bearer ${key.apiKey}` } };
  const url = new URL(up.url);
  const signer = new (signatureV4().SignatureV4)({
    service: SIGNING_SERVICE,
    region: key.region,
    credentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey },
    sha256: smithySerde().Hash.bind(null, 'sha256'),
  });
  const signed = await signer.sign({
    method: up.method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    // As sent: the model id's `:` is already %3A; the signer escapes the path once more, as AWS expects.
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { ...up.headers, host: url.host },
    body: up.body instanceof FormData ? undefined : up.body,
  });
  return { ...up, headers: signed.headers as Record<string, string> };
}
