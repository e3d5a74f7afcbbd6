/** Shared fixtures for the provider unit tests. */
import type { ProviderOptions, SseEvent, StreamConverter, Target, UpstreamRequest, Usage } from '../../../src/server/relay/providers/types';

export const OPTIONS: ProviderOptions = {
  claudeDefaultMaxTokens: { default: 8192 },
  claudeModelHeaders: {},
  claudeThinkingAdapterEnabled: true,
  claudeThinkingBudgetPercentage: 0.8,
  geminiSafetySettings: { default: 'OFF', HARM_CATEGORY_CIVIC_INTEGRITY: 'BLOCK_NONE' },
  geminiVersionSettings: { default: 'v1beta', 'gemini-1.0-pro': 'v1' },
  azureDefaultApiVersion: '2024-12-01-preview',
};

export type TargetOverrides = Partial<Omit<Target, 'options'>> & { options?: Partial<ProviderOptions> };

export function target(overrides: TargetOverrides = {}): Target {
  const { options, ...rest } = overrides;
  const model = rest.upstreamModel ?? rest.requestModel ?? 'gpt-4o';
  return {
    channelType: 1,
    baseUrl: 'https://api.example.com',
    key: 'sk-test',
    requestModel: model,
    upstreamModel: model,
    other: '',
    setting: {},
    ...rest,
    options: { ...OPTIONS, ...options },
  };
}

/** The JSON body of a built request. */
export function jsonBody(request: UpstreamRequest): Record<string, unknown> {
  return JSON.parse(request.body as string) as Record<string, unknown>;
}

export interface StreamRun {
  out: SseEvent[];
  /** The `data` of every output event parsed as JSON (non-JSON such as `[DONE]` kept as a string). */
  json: unknown[];
  usage?: Usage;
  /** Generated text: read by the steps, or read afterwards from the data they passed on unread. */
  text: string;
  /** How many steps passed their data on unread (the fast path). */
  unread: number;
  errors: unknown[];
}

/** Feeds events through a converter and its finish(), collecting everything it produced. */
export function runStream(converter: StreamConverter, events: SseEvent[], fallback?: Usage | (() => Usage)): StreamRun {
  const run: StreamRun = { out: [], json: [], text: '', unread: 0, errors: [] };
  const take = (step: ReturnType<StreamConverter['onEvent']>) => {
    run.out.push(...step.out);
    if (step.usage) run.usage = step.usage;
    if (step.text) run.text += step.text;
    if (step.rawText !== undefined) {
      run.unread += 1;
      run.text += converter.textOf!(step.rawText);
    }
    if (step.error) run.errors.push(step.error);
  };
  for (const event of events) take(converter.onEvent(event));
  const last = converter.finish(fallback);
  take(last);
  run.usage = last.usage;
  run.json = run.out.map((e) => {
    try {
      return JSON.parse(e.data);
    } catch {
      return e.data;
    }
  });
  return run;
}

/** Events with JSON data, as an upstream would send them. */
export function events(...items: (Record<string, unknown> | string | [string, Record<string, unknown>])[]): SseEvent[] {
  return items.map((item) => {
    if (typeof item === 'string') return { data: item };
    if (Array.isArray(item)) return { event: item[0], data: JSON.stringify(item[1]) };
    return { data: JSON.stringify(item) };
  });
}
