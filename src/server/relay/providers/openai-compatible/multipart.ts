/** Audio uploads (transcriptions, translations) are multipart forms, rebuilt for the upstream. */
import type { JsonObject } from '../common/json';
import { ProviderRequestError } from '../types';

/**
 * Copies every form field, replaces `model` with the upstream model and re-attaches the file
 * (docs/relay.md#other-families). Field values may be strings, numbers, booleans or lists of them.
 */
export function buildAudioForm(body: JsonObject, model: string): FormData {
  const file = body.file;
  if (!(file instanceof Blob)) throw new ProviderRequestError('file is required', 'invalid_request');
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (key === 'file' || key === 'model' || value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) form.append(key, String(item));
  }
  form.append('model', model);
  form.append('file', file, file instanceof File ? file.name : 'audio');
  return form;
}
