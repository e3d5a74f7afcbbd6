/**
 * The contract between the relay pipeline and a provider family. Providers are pure:
 * they turn requests and responses from one shape into another and never do I/O.
 */

/** What the caller asked for; decides the upstream endpoint and the body shapes. */
export type RelayMode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'images'
  | 'speech'
  | 'transcriptions'
  | 'translations'
  | 'moderations'
  | 'rerank'
  /** Claude Messages API in and out (only providers that speak it natively declare it). */
  | 'messages';

/** Token usage normalised across providers (all counts in tokens). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's cache (billed at the cache ratio). */
  cachedTokens?: number;
  /** Prompt tokens written to the provider's cache (Claude; billed at the cache-creation ratio). */
  cacheCreationTokens?: number;
  reasoningTokens?: number;
  /** Audio parts of prompt and completion (audio models). */
  audioPromptTokens?: number;
  audioCompletionTokens?: number;
  /**
   * Claude's input_tokens exclude cached tokens; OpenAI's prompt_tokens include them.
   * True when promptTokens already excludes cachedTokens.
   */
  promptExcludesCache?: boolean;
}

/** Provider-relevant global options, read by the pipeline from the options store. */
export interface ProviderOptions {
  claudeDefaultMaxTokens: Record<string, number>;
  claudeModelHeaders: Record<string, Record<string, string>>;
  claudeThinkingAdapterEnabled: boolean;
  claudeThinkingBudgetPercentage: number;
  geminiSafetySettings: Record<string, string>;
  geminiVersionSettings: Record<string, string>;
  azureDefaultApiVersion: string;
}

/** The chosen channel as a provider sees it. */
export interface Target {
  channelType: number;
  /** The channel's base URL, or the type's default; no trailing slash. */
  baseUrl: string;
  /** One key of the channel (providers with composite keys parse it themselves). */
  key: string;
  /** The model name the caller asked for (billing name). */
  requestModel: string;
  /** The model name sent upstream (after model mapping and suffix handling). */
  upstreamModel: string;
  /** The channel's `other` column (API version, region, ...). */
  other: string;
  /** Parsed channel `setting` JSON. */
  setting: Record<string, unknown>;
  options: ProviderOptions;
  /** Query string of the client's request (Azure's api-version may come from it). */
  clientQuery?: Record<string, string>;
  /** Selected client headers a provider may honour (e.g. anthropic-version, anthropic-beta). */
  clientHeaders?: Record<string, string>;
}

export interface UpstreamRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** JSON text, raw bytes, or a multipart form (audio). */
  body?: string | Uint8Array | FormData;
}

/** A non-stream answer converted for the client. */
export interface ParsedResponse {
  /** The body to send to the client (already in the client's format for this mode). */
  body: unknown;
  usage?: Usage;
  /** Text of the answer, for local counting when the provider reports no usage. */
  text?: string;
}

/** One server-sent event as read from upstream. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** What a stream converter produced for one upstream event. */
export interface StreamStep {
  /**
   * Client events to send, in order. `data` is JSON text (or `[DONE]`); `event` is set for
   * Claude-format streams. Passing the upstream `data` string through untouched is the fast path.
   */
  out: SseEvent[];
  /** Usage seen so far (the converter keeps the latest). */
  usage?: Usage;
  /** Text generated in this step (content, reasoning, tool arguments), for local counting. */
  text?: string;
  /** Set when the upstream event reports an error; the pipeline ends the stream. */
  error?: UpstreamError;
}

export interface StreamConverter {
  onEvent(event: SseEvent): StreamStep;
  /** Called once when the upstream stream ends; may emit closing events (not `[DONE]`). */
  finish(): StreamStep;
}

/** An upstream failure, normalised (OpenAI error fields). */
export interface UpstreamError {
  status: number;
  message: string;
  type: string;
  code: string | number | null;
}

export interface Provider {
  /** Stable id, e.g. `openai`, `claude`, `gemini`. */
  id: string;
  modes: ReadonlySet<RelayMode>;
  buildRequest(mode: RelayMode, body: Record<string, unknown>, target: Target, stream: boolean): UpstreamRequest;
  parseResponse(mode: RelayMode, json: unknown, target: Target): ParsedResponse;
  /** Absent for modes that never stream. */
  createStream?(mode: RelayMode, target: Target, client: { includeUsage: boolean }): StreamConverter;
  parseError(status: number, text: string): UpstreamError;
  /** URL and headers of the provider's model list (GET), for fetch_models and tests. */
  modelsRequest?(target: Target): UpstreamRequest;
}
