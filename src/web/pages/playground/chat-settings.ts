/**
 * The playground's settings (docs/console.md#playground-page), kept locally: model (default
 * gpt-4o-mini), group, max tokens (default 0 = not sent), temperature (0.1 to 1 in steps of
 * 0.1; the stored default 0 shows as the lowest step) and the system prompt.
 */
import { readJson, writeJson } from '../../storage';

export const SETTINGS_KEY = 'playground-settings';

export interface ChatSettings {
  model: string;
  group: string;
  max_tokens: number;
  temperature: number;
  system: string;
}

export const DEFAULT_MODEL = 'gpt-4o-mini';

/** A temperature the control can show: 0.1 … 1, one decimal. */
export function normalizeTemperature(value: unknown): number {
  const n = Number(value);
  if (!Number.isFinite(n)) return 0.1;
  return Math.min(1, Math.max(0.1, Math.round(n * 10) / 10));
}

/** Max tokens as a whole number ≥ 0 (anything else is 0). */
export function parseMaxTokens(value: unknown): number {
  const n = Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** The stored settings, completed with the defaults; `defaultSystem` is the language's helpful-assistant sentence. */
export function loadSettings(defaultSystem: string): ChatSettings {
  const stored = readJson<Partial<ChatSettings>>(SETTINGS_KEY) ?? {};
  return {
    model: typeof stored.model === 'string' && stored.model ? stored.model : DEFAULT_MODEL,
    group: typeof stored.group === 'string' ? stored.group : '',
    max_tokens: parseMaxTokens(stored.max_tokens),
    temperature: normalizeTemperature(stored.temperature ?? 0),
    system: typeof stored.system === 'string' ? stored.system : defaultSystem,
  };
}

export function saveSettings(settings: ChatSettings): void {
  writeJson(SETTINGS_KEY, settings);
}
