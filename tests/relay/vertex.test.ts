/**
 * Vertex AI channels (type 41, key: a service account's JSON key, region per model in `other`)
 * against a fake Vertex whose token endpoint checks the signed JWT assertion: Gemini models
 * (OpenAI chat converted, Gemini's own API passed through), Claude models (`:rawPredict`, the
 * Vertex envelope, `/v1/messages` native), open models on the OpenAI-compatible endpoint; all
 * plain and streamed, the access token fetched once and reused, errors in Google's shape, and
 * every answer billed exactly once from the upstream's usage.
 */
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeVertex, type FakeVertex } from '../fakes/vertex';
import { billedOnce, notBilled, setRatios, startBench, type Bench } from './harness';
import { seedChannel, storeChannelKey } from './seed';

const GEMINI = 'gemini-2.0-flash';
const CLAUDE = 'claude-3-5-sonnet-20240620';
const LLAMA = 'meta/llama3-405b-instruct-maas';
const REGIONS = JSON.stringify({ default: 'us-central1', [CLAUDE]: 'europe-west1' });

describeEachDialect('Vertex AI channels (service account, Gemini, Claude, open models)', (dialect) => {
  let vertex: FakeVertex;
  let b: Bench;
  let channel: number;
  let base: string;

  beforeAll(async () => {
    vertex = await startFakeVertex();
    // The fake's token endpoint is on 127.0.0.1: allowed here only, as for any local mirror.
    b = await startBench(dialect, { env: { TOKEN_URL_PRIVATE_ADDRESS_ENABLED: 'true' } });
    await setRatios(b, { [GEMINI]: 0.5, [CLAUDE]: 1.5, [LLAMA]: 1 });
    channel = await seedChannel(b.s, { type: 41, base_url: vertex.url, key: vertex.serviceAccountKey, other: REGIONS, models: `${GEMINI},${CLAUDE},${LLAMA}` });
    base = `/v1/projects/${vertex.projectId}/locations`;
  });
  afterAll(async () => {
    await b?.close();
    await vertex?.close();
  });

  it("the console's channel test passes for each of the channel's wire formats (signed, with the access token)", async () => {
    const root = await b.s.root();
    for (const model of [GEMINI, CLAUDE, LLAMA]) {
      const seen = vertex.requests.length;
      const res = await root.get(`/api/channel/test/${channel}?model=${encodeURIComponent(model)}`);
      expect(res.body, model).toMatchObject({ success: true });
      expect(vertex.requests.length, model).toBeGreaterThan(seen);
    }
  });

  it('Gemini, chat: generateContent at the default region with the access token; billed by usageMetadata', async () => {
    vertex.script({ text: 'Hello from Vertex.', usage: { prompt: 40, completion: 10 } });
    const { quota, log } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({
        model: GEMINI,
        max_tokens: 50,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      });
      expect(res.choices[0]!.message.content).toBe('Hello from Vertex.');
      expect(res.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 10 });
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(`${base}/us-central1/publishers/google/models/${GEMINI}:generateContent`);
    expect(sent.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(sent.headers['x-goog-user-project']).toBe(vertex.projectId);
    expect(sent.json).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], systemInstruction: { parts: [{ text: 'be brief' }] }, generationConfig: { maxOutputTokens: 50 } });
    expect(log).toMatchObject({ model_name: GEMINI, prompt_tokens: 40, completion_tokens: 10, channel_id: channel });
    // (40 + 10 × 4) × 0.5
    expect(quota).toBe(40);
  });

  it('Gemini, chat streamed with alt=sse; the token is reused, not fetched again', async () => {
    const issued = vertex.tokensIssued;
    vertex.script({ text: 'one two three', usage: { prompt: 20, completion: 6 } });
    const { quota } = await billedOnce(b, async () => {
      const stream = await b.openai().chat.completions.create({ model: GEMINI, messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let usage: unknown;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe('one two three');
      expect(usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 6 });
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(`${base}/us-central1/publishers/google/models/${GEMINI}:streamGenerateContent`);
    expect(sent.query.get('alt')).toBe('sse');
    expect(vertex.tokensIssued).toBe(issued);
    expect(vertex.tokensIssued).toBe(1);
    // (20 + 6 × 4) × 0.5
    expect(quota).toBe(22);
  });

  it("Gemini's own API (@google/genai) passes through to a Vertex Gemini model, plain and streamed", async () => {
    const ai = new GoogleGenAI({ apiKey: b.token.apiKey, httpOptions: { baseUrl: b.s.url } });
    vertex.script({ text: 'native', usage: { prompt: 8, completion: 2 } });
    const plain = await billedOnce(b, async () => {
      const res = await ai.models.generateContent({ model: GEMINI, contents: 'hello', config: { temperature: 0.1 } });
      expect(res.text).toBe('native');
    });
    expect(vertex.requests.at(-1)!.json).toMatchObject({ contents: [{ parts: [{ text: 'hello' }], role: 'user' }], generationConfig: { temperature: 0.1 } });
    // (8 + 2 × 4) × 0.5
    expect(plain.quota).toBe(8);
    vertex.script({ text: 'native stream here', usage: { prompt: 10, completion: 5 } });
    const streamed = await billedOnce(b, async () => {
      let text = '';
      for await (const chunk of await ai.models.generateContentStream({ model: GEMINI, contents: 'go' })) text += chunk.text ?? '';
      expect(text).toBe('native stream here');
    });
    // (10 + 5 × 4) × 0.5
    expect(streamed.quota).toBe(15);
  });

  it("Claude, chat: rawPredict in the model's own region with the Vertex envelope and name", async () => {
    vertex.script({ text: 'Claude on Vertex.', usage: { prompt: 30, completion: 10 } });
    const { quota } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({ model: CLAUDE, max_tokens: 80, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.choices[0]!.message.content).toBe('Claude on Vertex.');
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(`${base}/europe-west1/publishers/anthropic/models/claude-3-5-sonnet@20240620:rawPredict`);
    expect(sent.json).toEqual({ anthropic_version: 'vertex-2023-10-16', messages: [{ role: 'user', content: 'hi' }], max_tokens: 80 });
    // Claude's formula: (30 + 10 × 5) × 1.5
    expect(quota).toBe(120);
  });

  it('Claude, chat streamed (streamRawPredict, stream: true in the body)', async () => {
    vertex.script({ text: 'a b c', usage: { prompt: 10, completion: 3 } });
    const { quota } = await billedOnce(b, async () => {
      const stream = await b.openai().chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'x' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('a b c');
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(`${base}/europe-west1/publishers/anthropic/models/claude-3-5-sonnet@20240620:streamRawPredict`);
    expect(sent.json).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
    // (10 + 3 × 5) × 1.5 = 37.5, truncated
    expect(quota).toBe(37);
  });

  it('Claude, /v1/messages (Anthropic SDK): the native body in the envelope, plain and streamed', async () => {
    vertex.script({ text: 'native claude', usage: { prompt: 20, completion: 4 } });
    const plain = await billedOnce(b, async () => {
      const message = await b
        .anthropic()
        .messages.create({ model: CLAUDE, max_tokens: 32, messages: [{ role: 'user', content: 'hello' }] }, { headers: { 'anthropic-beta': 'output-128k-2025-02-19' } });
      expect(message.content).toEqual([{ type: 'text', text: 'native claude' }]);
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.json).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 32, messages: [{ role: 'user', content: 'hello' }] });
    expect(sent.headers['anthropic-beta']).toBe('output-128k-2025-02-19');
    // (20 + 4 × 5) × 1.5
    expect(plain.quota).toBe(60);
    vertex.script({ text: 'streamed claude', usage: { prompt: 10, completion: 2 } });
    const streamed = await billedOnce(b, async () => {
      let text = '';
      for await (const event of b.anthropic().messages.stream({ model: CLAUDE, max_tokens: 32, messages: [{ role: 'user', content: 'hello' }] })) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      }
      expect(text).toBe('streamed claude');
    });
    // (10 + 2 × 5) × 1.5
    expect(streamed.quota).toBe(30);
  });

  it("open models: Vertex's OpenAI-compatible endpoint, plain and streamed", async () => {
    vertex.script({ text: 'llama answer', usage: { prompt: 9, completion: 3 } });
    const plain = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({ model: LLAMA, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.choices[0]!.message.content).toBe('llama answer');
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(`/v1beta1/projects/${vertex.projectId}/locations/us-central1/endpoints/openapi/chat/completions`);
    expect(sent.json).toMatchObject({ model: LLAMA, messages: [{ role: 'user', content: 'hi' }] });
    expect(plain.quota).toBe(12);
    vertex.script({ text: 'streamed llama', usage: { prompt: 5, completion: 2 } });
    const streamed = await billedOnce(b, async () => {
      const stream = await b.openai().chat.completions.create({ model: LLAMA, messages: [{ role: 'user', content: 'hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('streamed llama');
    });
    // The upstream was asked for its usage chunk, which is billed.
    expect(vertex.requests.at(-1)!.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(streamed.quota).toBe(7);
  });

  it("Vertex's errors reach the client in their own words and cost nothing", async () => {
    vertex.script({ error: { status: 400, message: 'Request contains an invalid argument.' } });
    await notBilled(b, async () => {
      const failure = await b
        .openai()
        .chat.completions.create({ model: GEMINI, messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(failure).toMatchObject({ status: 400, type: 'INVALID_ARGUMENT' });
      expect(String((failure as Error).message)).toContain('Request contains an invalid argument.');
    });
  });

  it('keys that cannot authenticate: an unknown private key is refused at the token endpoint, a non-JSON key never leaves', async () => {
    const other = await startFakeVertex();
    try {
      // The other fake's account, but pointed at this fake's token endpoint: its signature does not verify.
      const forged = JSON.stringify({ ...(JSON.parse(other.serviceAccountKey) as object), project_id: vertex.projectId, client_email: vertex.clientEmail, token_uri: `${vertex.url}/token` });
      await seedChannel(b.s, { type: 41, base_url: vertex.url, key: forged, other: 'us-central1', models: 'gemini-1.5-pro' });
      // A key saved before keys were checked (or by the reference) still reaches the relay.
      await storeChannelKey(
        b.s,
        await seedChannel(b.s, { type: 41, base_url: vertex.url, key: vertex.serviceAccountKey, other: 'us-central1', models: 'gemini-1.5-flash' }),
        'AIza-not-a-service-account',
      );
      await setRatios(b, { 'gemini-1.5-pro': 1, 'gemini-1.5-flash': 1 });
      const calls = vertex.requests.length;
      const tokenCalls = vertex.tokenRequests;
      await notBilled(b, async () => {
        const refused = await b
          .openai()
          .chat.completions.create({ model: 'gemini-1.5-pro', messages: [{ role: 'user', content: 'x' }] })
          .catch((err: unknown) => err);
        expect(refused).toMatchObject({ status: 401, code: 'access_token_refused' });
        expect(String((refused as Error).message)).toContain('Invalid JWT Signature.');
        const malformed = await b
          .openai()
          .chat.completions.create({ model: 'gemini-1.5-flash', messages: [{ role: 'user', content: 'x' }] })
          .catch((err: unknown) => err);
        expect(malformed).toMatchObject({ status: 401, code: 'invalid_channel_key' });
      });
      expect(vertex.tokenRequests).toBe(tokenCalls + 1);
      // Only the token endpoint was called: no model request went out without a token.
      expect(vertex.requests.length).toBe(calls + 1);
    } finally {
      await other.close();
    }
  });
});
