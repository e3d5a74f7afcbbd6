/** `data:` URLs carry inline media (images, files, audio) in OpenAI-shaped requests. */

export interface InlineData {
  mediaType: string;
  /** Base64 payload, as found in the URL. */
  data: string;
}

const DATA_URL = /^data:([^;,]*)(?:;[^,]*)?;base64,/i;

/** Splits `data:<type>;base64,<data>`; undefined for anything else (http URLs, bare base64). */
export function parseDataUrl(url: string): InlineData | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] || 'application/octet-stream', data: url.slice(match[0].length) };
}

export function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  pdf: 'application/pdf',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
};

/** A media type guessed from a URL's file extension (remote media whose bytes we never see). */
export function mediaTypeFromUrl(url: string): string | undefined {
  const path = url.split(/[?#]/)[0];
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return EXTENSION_TYPES[ext];
}
