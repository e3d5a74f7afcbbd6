/**
 * What every request converted into OpenAI chat asks when it streams: the closing usage chunk,
 * which gives the client's own format (Claude, Gemini, Responses) its real counts.
 */
export function chatStreamFields(stream: boolean): { stream?: true; stream_options?: { include_usage: true } } {
  return stream ? { stream: true, stream_options: { include_usage: true } } : {};
}
