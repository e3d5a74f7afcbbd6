/**
 * The Claude Messages body of a request, from Claude's own format (`messages`) or OpenAI chat
 * (`chat`), with the options applied (default max_tokens, the thinking adapter, a reasoning
 * effort as a thinking budget). Anthropic's API sends it as it is; Bedrock and Vertex wrap the
 * same body in their envelopes.
 */
import type { JsonObject } from '../common/json';
import { budgetForEffort } from '../common/reasoning';
import type { Target } from '../types';
import { claudeRequestFromOpenAI } from './chat-request';
import { nativeClaudeBody } from './messages';
import { defaultMaxTokens, enableThinking, enableThinkingBudget, supportsThinking, thinkingPlan } from './thinking';

/** `model`: the name sent upstream (the `-thinking` suffix stripped when the adapter applies). */
export function claudeMessagesBody(mode: 'chat' | 'messages', body: JsonObject, target: Target): { json: JsonObject; model: string } {
  const { model, adapt } = thinkingPlan(target.upstreamModel, target.options);
  if (mode === 'messages') return { json: nativeClaudeBody(body, { model, requestModel: target.requestModel, adapt, options: target.options }), model };
  const json = claudeRequestFromOpenAI(body, { model, defaultMaxTokens: defaultMaxTokens(target.options, target.requestModel) });
  const budget = budgetForEffort(body.reasoning_effort);
  if (adapt) enableThinking(json, target.options);
  else if (budget !== undefined && supportsThinking(model)) enableThinkingBudget(json, budget);
  return { json, model };
}
