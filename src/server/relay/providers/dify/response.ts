/** Dify's blocking answer -> OpenAI `chat.completion` (its id is the Dify conversation id). */
import { chatCompletion } from '../common/chunks';
import { obj, str } from '../common/json';
import { usageFromOpenAI } from '../common/usage';
import type { ParsedResponse } from '../types';
import { nowSeconds } from '../../../../shared/time';

export function openaiChatFromDify(json: unknown, model: string): ParsedResponse {
  const answer = obj(json);
  const text = str(answer.answer) ?? '';
  // metadata.usage is OpenAI-shaped (prompt_tokens, completion_tokens, total_tokens, prices).
  const usage = usageFromOpenAI(obj(answer.metadata).usage);
  const body = chatCompletion({ meta: { id: str(answer.conversation_id) ?? '', created: nowSeconds(), model }, content: text, finishReason: 'stop', usage });
  return usage ? { body, usage } : { body, text };
}
