/** Text inside OpenAI-shaped messages: of answers (local token counting) and of any content value (conversions). */
import { arr, isRecord, obj, str } from './json';

/** Content, reasoning and tool-call names/arguments of one message or delta. */
function messageText(message: Record<string, unknown>): string {
  let text = (str(message.content) ?? '') + (str(message.reasoning_content) ?? '') + (str(message.reasoning) ?? '');
  for (const call of arr(message.tool_calls)) {
    const fn = obj(obj(call).function);
    text += (str(fn.name) ?? '') + (str(fn.arguments) ?? '');
  }
  return text;
}

/** Text of every choice of a chat answer (`message`) or chunk (`delta`), or of a completion (`text`). */
export function choicesText(body: unknown): string {
  if (!isRecord(body)) return '';
  let text = '';
  for (const choice of arr(body.choices)) {
    if (!isRecord(choice)) continue;
    if (isRecord(choice.delta)) text += messageText(choice.delta);
    else if (isRecord(choice.message)) text += messageText(choice.message);
    else text += str(choice.text) ?? '';
  }
  return text;
}

/**
 * The text of a message's content, for every conversion: a string as it is, or the `text` of
 * its parts (OpenAI content parts and Claude blocks alike) joined by `separator` — newlines
 * for prompts (system texts, tool results), nothing for answers.
 */
export function contentText(content: unknown, separator = '\n'): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => str(obj(part).text) ?? '')
    .filter(Boolean)
    .join(separator);
}
