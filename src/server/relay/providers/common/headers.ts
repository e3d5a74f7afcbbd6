/** Request headers shared by the providers. */

/** A JSON POST authorised by a Bearer key, asking for SSE when it streams (Cohere, Dify, AIProxy). */
export function bearerJsonHeaders(key: string, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  if (stream) headers.Accept = 'text/event-stream';
  return headers;
}

/** A JSON POST asking for SSE when it streams, authorised separately (Vertex AI, Zhipu: by `authorize`). */
export function jsonHeaders(stream: boolean): Record<string, string> {
  return stream ? { 'content-type': 'application/json', accept: 'text/event-stream' } : { 'content-type': 'application/json' };
}
