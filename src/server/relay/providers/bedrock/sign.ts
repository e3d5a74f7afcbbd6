/**
 * Bedrock's `authorize` step: AWS Signature Version 4 over the final request (method, path,
 * query, headers with the host, and the body's SHA-256), by `@smithy/signature-v4`, the
 * signer of AWS's own SDK; a Bedrock API key goes as a Bearer token instead.
 */
import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import type { UpstreamRequest } from '../types';
import type { BedrockKey } from './meta';

/** Bedrock runtime's signing name (its endpoints are `bedrock-runtime.<region>…`). */
export const SIGNING_SERVICE = 'bedrock';

const sha256 = Hash.bind(null, 'sha256');

export async function signBedrockRequest(up: UpstreamRequest, key: BedrockKey): Promise<UpstreamRequest> {
  if (key.kind === 'api-key') return { ...up, headers: { ...up.headers, authorization: `Bearer ${key.apiKey}` } };
  const url = new URL(up.url);
  const signer = new SignatureV4({
    service: SIGNING_SERVICE,
    region: key.region,
    credentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey },
    sha256,
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
