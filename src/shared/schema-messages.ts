/**
 * `x-messages` of a JSON Schema property (schemas/entities/*.json and schemas/options/*.json):
 * keyword of a failed rule (`maxLength`, `minimum`, `pattern`, ...) → the message for THAT
 * field. A message is either
 * - a plain string: the server's own words in Chinese (the reference's, verbatim); the
 *   English console translates server replies through its `server` texts, or
 * - `{ "zh": ..., "en": ... }`: our own rule, written in both languages, so the console shows
 *   it before any request and the server answers the Chinese one.
 * Both sides read them through `schemaMessage`, so a message is written once.
 */
export type SchemaMessage = string | { zh: string; en: string };
export type SchemaMessages = Partial<Record<string, SchemaMessage>>;

/** The keywords whose failure means a malformed value, not a business refusal (400). */
export const FORMAT_KEYWORDS: ReadonlySet<string> = new Set(['pattern', 'format']);

/**
 * The message in `lang`, or undefined when the schema has none in that language (a plain
 * string has Chinese only).
 */
export function schemaMessage(message: SchemaMessage | undefined, lang: 'zh' | 'en'): string | undefined {
  if (message === undefined) return undefined;
  if (typeof message === 'string') return lang === 'zh' ? message : undefined;
  return message[lang];
}

/** A broken `x-messages` (an empty text, a pair without both languages) as a sentence, or undefined. */
export function messagesProblem(messages: unknown): string | undefined {
  if (messages === undefined) return undefined;
  if (typeof messages !== 'object' || messages === null || Array.isArray(messages)) return 'x-messages must be an object';
  for (const [keyword, message] of Object.entries(messages)) {
    if (typeof message === 'string' && message !== '') continue;
    const pair = message as { zh?: unknown; en?: unknown } | null;
    if (typeof pair === 'object' && pair !== null && typeof pair.zh === 'string' && pair.zh !== '' && typeof pair.en === 'string' && pair.en !== '') continue;
    return `x-messages.${keyword} must be a text or { zh, en }`;
  }
  return undefined;
}
