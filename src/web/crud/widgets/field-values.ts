/**
 * Pure rules of the gateway form widgets: model lists (docs/messages.md#gateway-resources "某些模型已存在！"),
 * expiry text (`YYYY-MM-DD HH:mm:ss`, -1 never) and preset times.
 */

/** Names in order, without duplicates or empties. */
export function mergeModels(current: readonly string[], more: readonly string[]): string[] {
  return [...new Set([...current, ...more].map((m) => m.trim()).filter(Boolean))];
}

/**
 * Adds the comma-separated names of `input`. As in the reference, if any of them is already
 * in the list nothing is added and `duplicate` is true.
 */
export function addCustomModels(current: readonly string[], input: string): { models: string[]; duplicate: boolean } {
  const names = input
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (names.some((n) => current.includes(n))) return { models: [...current], duplicate: true };
  return { models: mergeModels(current, names), duplicate: false };
}

export const NEVER = -1;
const pad = (n: number) => String(n).padStart(2, '0');

/** Unix seconds as local `YYYY-MM-DD HH:mm:ss`; never (-1) and nothing as ''. */
export function expiryText(value: unknown): string {
  const seconds = Number(value);
  if (value === undefined || value === null || value === '' || seconds === NEVER || !Number.isFinite(seconds) || seconds <= 0) return '';
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The text back to unix seconds: '' or '-1' is never; anything not a real local time is undefined. */
export function parseExpiry(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '-1') return NEVER;
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(trimmed);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const date = new Date(y, mo - 1, d, h, mi, s);
  const real = date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d && date.getHours() === h && date.getMinutes() === mi && date.getSeconds() === s;
  return real ? Math.floor(date.getTime() / 1000) : undefined;
}

/** A preset: -1 stays never, any other value is seconds from `now` (unix seconds). */
export function presetExpiry(offset: number, now: number): number {
  return offset === NEVER ? NEVER : now + offset;
}
