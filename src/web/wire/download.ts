/**
 * Downloads a file reply (the usage log's CSV export) through the console's fetch with its
 * headers, reporting the bytes received as they arrive so the screen can show progress
 * (the export is streamed: its size is not known ahead). A reply that is an envelope (a
 * refusal, an expired session) is judged like every other and throws its message.
 */
import { buildUrl, type Query } from './mappings';
import { judgeReply, parseBody, requestHeaders, transportError, type TransportDeps } from './replies';

export interface Downloaded {
  blob: Blob;
  fileName: string;
  bytes: number;
}

/** The file name of `Content-Disposition: attachment; filename="…"`, else the fallback. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(disposition ?? '');
  return match?.[1] ?? fallback;
}

export async function downloadFile(
  deps: Pick<TransportDeps, 'fetch' | 'userId' | 'translate' | 'onUnauthorized'>,
  path: string,
  query: Query,
  onProgress: (bytes: number) => void,
  fallbackName: string,
): Promise<Downloaded> {
  let res: Response;
  try {
    res = await deps.fetch(buildUrl(path, query), { headers: requestHeaders(deps), credentials: 'same-origin' });
  } catch (err) {
    throw transportError(deps, err);
  }
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json') || !res.body) {
    judgeReply(deps, res.status, parseBody(await res.text()));
    throw transportError(deps, new Error(`HTTP ${res.status}`));
  }
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    bytes += value.length;
    onProgress(bytes);
  }
  return { blob: new Blob(parts as BlobPart[], { type }), fileName: attachmentName(res.headers.get('content-disposition'), fallbackName), bytes };
}

/** Bytes as the progress shows them: `512 B`, `3.4 KB`, `12.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
