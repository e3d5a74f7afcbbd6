/** The end of a relay route, shared by the OpenAI-style, Gemini-style and direct paths. */
import type { RelayReply } from './pipeline/exchange';

/** Ends a request whose client left before anything was sent (Fastify must not wait for a reply). */
export function finishIfSilent(reply: RelayReply): void {
  if (!reply.sent) {
    reply.hijack();
    if (!reply.raw.writableEnded) reply.raw.end();
  }
}
