/** Gemini's endpoints, auth and the option-driven settings (docs/relay.md#gemini). */
import { joinUrl } from '../common/urls';
import type { ProviderOptions, Target } from '../types';

/** Option `gemini.version_settings`: the model's API version, else `default`, else v1beta. */
export function geminiVersion(options: ProviderOptions, model: string): string {
  return options.geminiVersionSettings[model] || options.geminiVersionSettings.default || 'v1beta';
}

/** `{base}/{version}/models/{model}:{action}` */
export function modelActionUrl(target: Target, model: string, action: string): string {
  return joinUrl(target.baseUrl, `/${geminiVersion(target.options, model)}/models/${encodeURIComponent(model)}:${action}`);
}

export function geminiHeaders(target: Target, stream = false): Record<string, string> {
  const headers: Record<string, string> = { 'x-goog-api-key': target.key, 'content-type': 'application/json' };
  if (stream) headers.accept = 'text/event-stream';
  return headers;
}

export function isEmbeddingModel(model: string): boolean {
  return model.startsWith('text-embedding') || model.startsWith('embedding') || model.startsWith('gemini-embedding');
}

export function isImagenModel(model: string): boolean {
  return model.startsWith('imagen');
}

const SAFETY_CATEGORIES = ['HARM_CATEGORY_HARASSMENT', 'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_SEXUALLY_EXPLICIT', 'HARM_CATEGORY_DANGEROUS_CONTENT', 'HARM_CATEGORY_CIVIC_INTEGRITY'] as const;

/** Option `gemini.safety_settings`: each category's threshold, else `default`, else OFF. */
export function safetySettings(options: ProviderOptions): { category: string; threshold: string }[] {
  const table = options.geminiSafetySettings;
  return SAFETY_CATEGORIES.map((category) => ({ category, threshold: table[category] || table.default || 'OFF' }));
}
