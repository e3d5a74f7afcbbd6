/**
 * Gemini-native callers on channels that do not speak Gemini: the request goes to the
 * provider as OpenAI chat (or embeddings), and `back` turns the provider's OpenAI answer —
 * whole or streamed — into Gemini's shapes. Both directions in one place for the pipeline,
 * as claude-openai.ts does for /v1/messages.
 */
import type { JsonObject } from '../providers/common/json';
import { splitEffortSuffix, takesReasoningEffort } from '../providers/common/reasoning';
import { supportsThinking } from '../providers/claude/thinking';
import type { RelayMode, StreamConverter, Usage } from '../providers/types';
import { geminiResponseFromChat } from './chat-response-to-gemini';
import { GeminiStreamFromChat } from './chat-stream-to-gemini';
import { embeddingsRequestFromGemini, geminiEmbeddingsFromOpenAI, isBatchEmbedding } from './gemini-embeddings';
import { chatRequestFromGemini } from './gemini-request-to-chat';

export interface GeminiReturn {
  /** The provider's OpenAI answer -> Gemini's (`usage`: what is billed, reported in usageMetadata). */
  whole(body: unknown, usage: Usage | undefined): unknown;
  /** Wraps the provider's chat stream converter (generation only). */
  stream(inner: StreamConverter): StreamConverter;
}

export interface GeminiViaOpenAI {
  mode: RelayMode;
  body: JsonObject;
  back: GeminiReturn;
}

/**
 * `model`: the name asked for (reported back); `upstreamModel`: the mapped name, which decides
 * whether a thinking budget may become `reasoning_effort`. Throws ProviderRequestError for
 * parts no chat upstream takes.
 */
export function geminiViaOpenAI(mode: 'gemini' | 'gemini-embeddings', body: JsonObject, args: { model: string; upstreamModel: string; stream: boolean }): GeminiViaOpenAI {
  if (mode === 'gemini-embeddings') {
    const batch = isBatchEmbedding(body);
    return {
      mode: 'embeddings',
      body: embeddingsRequestFromGemini(body, args.model),
      back: {
        whole: (answer) => geminiEmbeddingsFromOpenAI(answer, batch),
        stream: (inner) => inner,
      },
    };
  }
  // A thinking budget becomes reasoning_effort where the upstream model takes one: OpenAI's
  // reasoning models, and Claude's extended-thinking models (the Claude provider turns the
  // effort back into a thinking budget).
  const upstream = splitEffortSuffix(args.upstreamModel).model;
  const reasoningEffort = takesReasoningEffort(upstream) || supportsThinking(upstream);
  return {
    mode: 'chat',
    body: chatRequestFromGemini(body, { model: args.model, stream: args.stream, reasoningEffort }),
    back: {
      whole: (answer, usage) => geminiResponseFromChat(answer, args.model, usage),
      stream: (inner) => new GeminiStreamFromChat(inner, args.model),
    },
  };
}
