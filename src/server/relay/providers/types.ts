/**
 * The contract between the relay pipeline and a provider family. Providers are pure:
 * they turn requests and responses from one shape into another and never do I/O themselves
 * (an `authorize` step reaches the network only through the `CredentialServices` it is lent).
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
  | 'messages'
  /** Gemini's generateContent / streamGenerateContent in and out (native on Gemini channels). */
  | 'gemini'
  /** Gemini's embedContent / batchEmbedContents in and out (native on Gemini channels). */
  | 'gemini-embeddings'
  /** OpenAI Responses API in and out (only providers that speak it natively declare it). */
  | 'responses'
  /** OpenAI's Realtime API over a WebSocket (relay/realtime/): `realtimeRequest` opens it. */
  | 'realtime';

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
  /** Option `claude.model_headers_settings`: requested model -> header -> value (a list is joined with ','). */
  claudeModelHeaders: Record<string, Record<string, string | string[]>>;
  claudeThinkingAdapterEnabled: boolean;
  claudeThinkingBudgetPercentage: number;
  geminiSafetySettings: Record<string, string>;
  geminiVersionSettings: Record<string, string>;
  azureDefaultApiVersion: string;
  /** Env `GEMINI_VISION_MAX_IMAGE_NUM`: images allowed in one message (default 16; -1 = unlimited). */
  geminiMaxImagesPerMessage?: number;
  /** Env `FORCE_STREAM_OPTION`: ask streaming upstreams for a usage chunk (default true). */
  forceStreamUsage?: boolean;
  /** Env `COHERE_SAFETY_SETTING`: sent as Cohere's `safety_mode` unless NONE (the default). */
  cohereSafetyMode?: string;
  /** Env `DIFY_DEBUG` (default true): Dify's workflow and node events as reasoning text. */
  difyDebug?: boolean;
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
  /**
   * The model name after model mapping. Suffixes that mean a request option (`-thinking`,
   * `-high`/`-medium`/`-low`) are still on it: the provider strips them and reports the name
   * it really sent in `UpstreamRequest.model`.
   */
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
  /** The channel's `openai_organization`, sent as `OpenAI-Organization` by the OpenAI family. */
  organization?: string;
  /**
   * The client's JSON body as it arrived, when the body given to `buildRequest` is that very
   * request: a provider that leaves it unchanged may send these bytes instead of serialising.
   */
  rawBody?: Uint8Array;
}

export interface UpstreamRequest {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  /** JSON text, raw bytes, or a multipart form (audio; no Content-Type header then, fetch sets it). */
  body?: string | Uint8Array | FormData;
  /** The model name really sent upstream (suffixes stripped), for logs. */
  model?: string;
  /** The reasoning effort taken from a `-high`/`-medium`/`-low` suffix, for the log. */
  reasoningEffort?: string;
}

/**
 * Thrown by `buildRequest` when a request cannot be converted for this provider (a client
 * error: reply 400, no retry, no channel penalty).
 */
export class ProviderRequestError extends Error {
  constructor(
    message: string,
    readonly code = 'invalid_request',
    readonly status = 400,
  ) {
    super(message);
    this.name = 'ProviderRequestError';
  }
}

/** A non-stream answer converted for the client. */
export interface ParsedResponse {
  /** The body to send to the client (already in the client's format for this mode). */
  body: unknown;
  usage?: Usage;
  /** Text of the answer, for local counting when the provider reports no usage. */
  text?: string;
  /** Set when an HTTP 200 answer is really an error (e.g. a body with `error.type`). */
  error?: UpstreamError;
}

/** One server-sent event as read from upstream. */
export interface SseEvent {
  event?: string;
  data: string;
  /** The value of the parser's `extraField` line of this event, when it had one. */
  extra?: string;
}

/** `data: ` + `\n\n`: what writing an event plainly adds to its data (characters and bytes alike). */
export const PLAIN_EVENT_OVERHEAD = 8;

/** What a stream converter produced for one upstream event. */
export interface StreamStep {
  /**
   * Client events to send, in order. `data` is JSON text (or `[DONE]`); `event` is set for
   * Claude-format streams. Passing the upstream `data` string through untouched is the fast path.
   */
  out: SseEvent[];
  /** Usage seen so far (the converter keeps the latest); in the step `finish()` returns, the usage to bill. */
  usage?: Usage;
  /** Text generated in this step (content, reasoning, tool arguments), for local counting. */
  text?: string;
  /**
   * Instead of `text`: the upstream `data` the step passed on without reading its text (the
   * fast path). Only when the stream ends without usage is the text read, by `textOf`.
   */
  rawText?: string;
  /**
   * Set when the upstream event reports an error; the pipeline sends `out` (e.g. a Claude
   * `error` event the client understands) and then ends the stream.
   */
  error?: UpstreamError;
}

export interface StreamConverter {
  /**
   * The step of one upstream event. It is read before the next call and not kept: a converter
   * may hand out the same step object (and `out` array) again on its fast path.
   */
  onEvent(event: SseEvent): StreamStep;
  /**
   * Called before the events of each upstream read with its decoded text; `whole`: every
   * event of it begins in it (none was begun by an earlier read). Lets a converter look for
   * markers once per read instead of once per event. Not kept: the text dies with the read.
   * An upstream that answers a stream request with a plain JSON error body (Baidu) has no
   * events to report it in: the converter answers the error here and the stream ends with it.
   */
  onChunk?(text: string, whole: boolean): UpstreamError | void;
  /**
   * Called after `onChunk` when that read parsed as only whole plain events, each exactly
   * `data: …\n\n` (StreamDecoder.lastChunkWasPlainEvents), before their `onEvent` calls: each
   * event's place in the read's text is then known from the lengths of the events before it.
   */
  onPlainChunk?(): void;
  /**
   * The relay is done with the steps handed out so far (called after each upstream read): a
   * converter that reuses a step drops what it refers to, so no event outlives its chunk.
   */
  release?(): void;
  /**
   * Called once when the upstream stream ends; may emit closing events (not `[DONE]`), such as
   * the usage chunk a client asked for with `stream_options.include_usage` or Claude's
   * `message_delta`/`message_stop`. `fallbackUsage` is the pipeline's local count (prompt +
   * counted output text), or a function computing it: the converter uses it only where the
   * stream's own usage is missing or incomplete (e.g. cut before Claude's output count). The
   * returned step's `usage` is the final usage to bill.
   */
  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep;
  /** The generated text of an upstream `data` a step returned as `rawText`. */
  textOf?(raw: string): string;
}

/** An upstream failure, normalised (OpenAI error fields). */
export interface UpstreamError {
  status: number;
  message: string;
  type: string;
  code: string | number | null;
}

/**
 * Turns an upstream stream's bytes into events for a `StreamConverter`. The relay's default is
 * its SSE parser; providers whose upstream frames its stream otherwise (AWS event stream)
 * give their own through `Provider.streamDecoder`.
 */
export interface StreamDecoder {
  /** Feeds one chunk; answers the events it completed. Throws when the framing is broken. */
  push(chunk: Uint8Array, onText?: (text: string, whole: boolean) => void): SseEvent[];
  /** The stream ended: what is left (throws when it ended inside an event). */
  end(): SseEvent[];
  /** The last chunk was only whole `data: …` events, exactly as the relay would write them (SSE only). */
  readonly lastChunkWasPlainEvents: boolean;
}

/**
 * The request to an OAuth token endpoint (RFC 6749 §4: a form POST answered by
 * `{access_token, expires_in}`), built by a provider, sent by the relay.
 */
export interface TokenRequest {
  url: string;
  /** The form fields (application/x-www-form-urlencoded); parameters may also be in `url`. */
  form: Record<string, string>;
  /**
   * The URL came with the key rather than from the operator's base URL (a service account's
   * `token_uri`): it must be https and reach only public addresses.
   */
  fromKey: boolean;
}

/** One credential's access token: what `CredentialServices.accessToken` needs. */
export interface TokenGrant {
  /** The credential (the whole key): tokens are cached per credential, under a hash of it. */
  secret: string;
  /** The token request, built only when no valid token is cached (e.g. a freshly signed assertion). */
  request(): TokenRequest | Promise<TokenRequest>;
}

/**
 * What the relay lends an `authorize` step: the only I/O a provider can cause. Implemented by
 * `upstream/access-tokens.ts` (bounded cache, one fetch per credential at a time, address
 * checks); failures reach the relay as channel faults.
 */
export interface CredentialServices {
  /** An access token for the grant: the cached one until shortly before it expires, else a new one. */
  accessToken(grant: TokenGrant): Promise<string>;
}

/**
 * The channel's key cannot be used (wrong format, a service account without its private key):
 * a fault of the channel, not of the request (the relay answers it as a 401 of the upstream,
 * tries another channel and counts it against this one).
 */
export class ChannelKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChannelKeyError';
  }
}

export interface Provider {
  /** Stable id, e.g. `openai`, `claude`, `gemini`. */
  id: string;
  /** The modes of the family (the union of `forModel`'s providers where there are several). */
  modes: ReadonlySet<RelayMode>;
  /**
   * Families whose models speak different wire formats (Bedrock: Claude's Messages or the
   * Converse API; Vertex: Gemini, Claude or OpenAI chat) answer the provider of one upstream
   * model (after model mapping); the relay uses that one for the whole attempt.
   */
  forModel?(upstreamModel: string): Provider;
  /**
   * The asynchronous last step of a request, run by the relay after `buildRequest` and the
   * channel's param_override, for what needs the final bytes or I/O: a signature over the body
   * (AWS SigV4), an OAuth access token through `services`. Answers the request to send.
   * Throws `ChannelKeyError` for a key it cannot use. Providers without it pay nothing.
   */
  authorize?(request: UpstreamRequest, target: Target, services: CredentialServices): Promise<UpstreamRequest>;
  /**
   * The upstream never reports token counts (AIProxy's library API): the relay's local count is
   * its usage everywhere, the console's channel test included (which otherwise takes an answer
   * without usage as a failure).
   */
  usageCountedLocally?: boolean;
  /** The decoder of this mode's upstream stream when it is not SSE (undefined: SSE). */
  streamDecoder?(mode: RelayMode, target: Target): StreamDecoder | undefined;
  /**
   * A field outside the SSE standard that this upstream's stream events carry and the
   * converter needs (Zhipu v3's `meta:` line with the usage): the relay's SSE parser keeps it
   * on the event as `extra`.
   */
  sseExtraField?: string;
  /**
   * `body` is the client's JSON (OpenAI shape; Claude's for `messages`). For `transcriptions`
   * and `translations` it holds the form fields as strings and the upload as a `Blob` in `file`.
   * Throws `ProviderRequestError` when the body cannot be converted, `ChannelKeyError` when
   * the channel's key cannot be used.
   */
  buildRequest(mode: RelayMode, body: Record<string, unknown>, target: Target, stream: boolean): UpstreamRequest;
  /**
   * `json` is the parsed upstream body (a string for non-JSON answers such as transcriptions in
   * `text` format). Not called for `speech`: its audio is streamed back as is.
   */
  parseResponse(mode: RelayMode, json: unknown, target: Target): ParsedResponse;
  /** Absent for modes that never stream. */
  createStream?(mode: RelayMode, target: Target, client: { includeUsage: boolean }): StreamConverter;
  parseError(status: number, text: string): UpstreamError;
  /** URL and headers of the provider's model list (GET), for fetch_models and tests. */
  modelsRequest?(target: Target): UpstreamRequest;
  /**
   * Providers with the `responses` mode: reading (GET) or deleting (DELETE) a response the
   * upstream stores, by its id; `inputItems`: its input item list (GET, with the client's
   * query: limit, after, order).
   */
  storedResponseRequest?(method: 'GET' | 'DELETE', id: string, target: Target, inputItems?: Record<string, string>): UpstreamRequest;
  /**
   * The upstream's own prompt count for a Claude Messages body (`/v1/messages/count_tokens`),
   * for providers that have one; its answer is `{input_tokens}`.
   */
  countTokensRequest?(body: Record<string, unknown>, target: Target): UpstreamRequest;
  /**
   * Providers with the `realtime` mode: the WebSocket address (http(s), the relay makes it
   * ws(s)) and headers of a Realtime session for `target.upstreamModel`.
   */
  realtimeRequest?(target: Target): UpstreamRequest;
}
