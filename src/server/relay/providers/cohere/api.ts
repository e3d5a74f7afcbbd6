/** Cohere's v2 endpoints and auth: one API key as a Bearer token. */
import { bearerJsonHeaders } from '../common/headers';
import { joinUrl } from '../common/urls';
import type { RelayMode, Target } from '../types';

/** The v2 path of each mode Cohere serves (its keys are the provider's modes). */
export const COHERE_PATHS: Partial<Record<RelayMode, string>> = { chat: '/v2/chat', embeddings: '/v2/embed', rerank: '/v2/rerank' };

export function cohereUrl(target: Target, path: string): string {
  return joinUrl(target.baseUrl, path);
}

export function cohereHeaders(target: Target, stream: boolean): Record<string, string> {
  return bearerJsonHeaders(target.key, stream);
}
