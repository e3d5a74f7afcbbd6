/** Gemini generateContent answer -> OpenAI chat completion (docs/relay.md#gemini). */
import { newId } from '../common/chunks';
import { arr, obj } from '../common/json';
import { openaiUsageBody } from '../common/usage';
import type { ParsedResponse } from '../types';
import { candidateOutput } from './parts';
import { finishReasonFromGemini, usageFromGemini } from './usage';
import { nowSeconds } from '../../../../shared/time';

export function openaiResponseFromGemini(json: unknown, model: string): ParsedResponse {
  const answer = obj(json);
  const candidates = arr(answer.candidates);
  if (candidates.length === 0) {
    // Usually a blocked prompt (promptFeedback.blockReason).
    return { body: json, error: { status: 500, message: 'No candidates returned', type: 'server_error', code: null } };
  }
  let allText = '';
  const choices = candidates.map((raw, position) => {
    const candidate = obj(raw);
    const output = candidateOutput(candidate);
    const content = output.text.join('\n');
    allText += content + output.reasoning + output.toolCalls.map((c) => c.name + c.arguments).join('');
    const message: Record<string, unknown> = { role: 'assistant', content };
    if (output.reasoning) message.reasoning_content = output.reasoning;
    if (output.toolCalls.length > 0) {
      message.tool_calls = output.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
    }
    const index = typeof candidate.index === 'number' ? candidate.index : position;
    return { index, message, finish_reason: finishReasonFromGemini(candidate.finishReason, output.toolCalls.length > 0) };
  });
  const usage = usageFromGemini(answer.usageMetadata);
  const body: Record<string, unknown> = { id: newId('chatcmpl-'), object: 'chat.completion', created: nowSeconds(), model, choices };
  if (usage) body.usage = openaiUsageBody(usage);
  return usage ? { body, usage } : { body, text: allText };
}
