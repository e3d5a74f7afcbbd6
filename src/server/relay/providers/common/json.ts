/** Small readers for untrusted JSON values: upstream and client bodies are never trusted. */

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value when it is a finite number, else 0 (token counts default to zero). */
export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The value when it is a finite number, else undefined (optional request fields). */
export function optionalNum(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value when it is an object, else an empty one (read-only use). */
export function obj(value: unknown): JsonObject {
  return isRecord(value) ? value : {};
}

/** Parses JSON text; undefined instead of an exception for bad input. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Copies an object without the keys whose value is undefined (keeps JSON output tidy). */
export function compact<T extends JsonObject>(source: T): T {
  const out = {} as JsonObject;
  for (const [key, value] of Object.entries(source)) if (value !== undefined) out[key] = value;
  return out as T;
}
