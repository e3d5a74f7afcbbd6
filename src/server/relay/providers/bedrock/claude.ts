/**
 * Claude on Bedrock (InvokeModel): Claude's Messages body without `model` and `stream` (the
 * model is in the URL, streaming is the endpoint's choice) and with
 * `anthropic_version: bedrock-2023-05-31`; beta features go in the body as `anthropic_beta`.
 * Answers and events are Claude's own (events inside the AWS event stream).
 */
import type { JsonObject } from '../common/json';
import { claudeOptionalHeaders } from '../claude/api';
import { claudeMessagesBody } from '../claude/request-body';
import type { Target } from '../types';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** Fields Bedrock refuses in a Claude body (the URL and the endpoint say them). */
const DROPPED = ['model', 'stream', 'metadata'] as const;

export function bedrockClaudeBody(mode: 'chat' | 'messages', body: JsonObject, target: Target): { json: JsonObject; model: string } {
  const { json, model } = claudeMessagesBody(mode, body, target);
  const out: JsonObject = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...json };
  for (const field of DROPPED) delete out[field];
  const beta = claudeOptionalHeaders(target, {})['anthropic-beta'];
  if (beta) {
    const features = beta
      .split(',')
      .map((feature) => feature.trim())
      .filter(Boolean);
    if (features.length > 0) out.anthropic_beta = features;
  }
  return { json: out, model };
}
