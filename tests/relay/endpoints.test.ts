/**
 * Every /v1 endpoint through an OpenAI channel with the real `openai` client (fetch where the
 * client has no method): completions (stream and not), embeddings, images, speech,
 * transcriptions, translations, moderations, rerank, models; plus the scope's own behaviour:
 * error shapes, 404, 501, CORS, request id, gzip bodies, refused unpriced models.
 */
import { gzipSync } from 'node:zlib';
import { toFile } from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { setOption, startBench, type Bench } from './harness';
import { balances, seedChannel, seedToken } from './seed';

/** A 1-second 8 kHz mono 16-bit WAV of silence. */
function wavSecond(): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVE', 8);
  head.write('fmt ', 12);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

describeEachDialect('relay endpoints', (dialect) => {
  let fake: FakeOpenAI;
  let b: Bench;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    b = await startBench(dialect);
    const ratios = b.s.app.ctx.options.json<Record<string, number>>('ModelRatio');
    await setOption(b, 'ModelRatio', JSON.stringify({ ...ratios, 'bge-reranker-v2-m3': 0.05 }));
    await seedChannel(b.s, {
      type: 1,
      base_url: fake.url,
      models: 'gpt-4o-mini,gpt-3.5-turbo-instruct,text-embedding-3-small,dall-e-3,tts-1,whisper-1,text-moderation-stable,bge-reranker-v2-m3,no-price-model',
    });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  async function charged(run: () => Promise<unknown>): Promise<number> {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    await run();
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.openCount).toBe(0);
    return before.quota - after.quota;
  }

  it('completions, whole and streamed', async () => {
    fake.script({ text: 'once upon a time', usage: { prompt: 4, completion: 4 } });
    const cost = await charged(async () => {
      const res = await b.openai().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Tell me' });
      expect(res.choices[0]!.text).toBe('once upon a time');
    });
    // (4 + 4 × 4/3) × 0.75 = 7
    expect(cost).toBe(7);
    fake.script({ text: 'a b c', usage: { prompt: 2, completion: 3 } });
    const stream = await b.openai().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'x', stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe('a b c');
  });

  it('embeddings, billed by upstream usage', async () => {
    fake.script({ usage: { prompt: 1000 } });
    const cost = await charged(async () => {
      const res = await b.openai().embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta'] });
      expect(res.data).toHaveLength(2);
    });
    // 1000 × 0.01 = 10
    expect(cost).toBe(10);
  });

  it('images: priced per image, size and quality', async () => {
    const cost = await charged(async () => {
      const res = await b.openai().images.generate({ model: 'dall-e-3', prompt: 'a cat', n: 1, size: '1024x1024', quality: 'hd' });
      expect(res.data?.length).toBe(1);
    });
    // 0.04 × 1 × 2 (hd) × 500000
    expect(cost).toBe(40000);
    const bad = await b
      .openai()
      .images.generate({ model: 'dall-e-3', prompt: 'a cat', size: '256x256' })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400 });
  });

  it('speech: audio streamed back, billed by characters', async () => {
    const cost = await charged(async () => {
      const res = await b.openai().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello world' });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(0);
    });
    // 11 characters × 7.5 = 82.5 → 83
    expect(cost).toBe(83);
  });

  it('transcriptions and translations: multipart upload, billed by audio length', async () => {
    const cost = await charged(async () => {
      const res = await b.openai().audio.transcriptions.create({ model: 'whisper-1', file: await toFile(wavSecond(), 'a.wav') });
      expect(res.text.length).toBeGreaterThan(0);
    });
    // 1 s → round(1/60 × 1000) = 17 tokens × 15
    expect(cost).toBe(255);
    const upstream = fake.requests.at(-1)!;
    expect(String(upstream.headers['content-type'])).toMatch(/^multipart\/form-data/);
    const res = await b.openai().audio.translations.create({ model: 'whisper-1', file: await toFile(wavSecond(), 'b.wav') });
    expect(res.text.length).toBeGreaterThan(0);
    const missing = await fetch(`${b.s.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${b.token.apiKey}` }, body: new FormData() });
    expect(missing.status).toBe(400);
  });

  it('moderations (default model) and rerank', async () => {
    const mod = await b.openai().moderations.create({ input: 'fine text' } as never);
    expect(mod.results).toHaveLength(1);
    const res = await fetch(`${b.s.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bge-reranker-v2-m3', query: 'q', documents: ['a', 'b'] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(2);
    const empty = await fetch(`${b.s.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bge-reranker-v2-m3', query: 'q', documents: [] }),
    });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe('invalid_documents');
  });

  it('lists the models the token may use and retrieves catalogue models', async () => {
    const page = await b.openai().models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toContain('gpt-4o-mini');
    expect(ids).toContain('whisper-1');
    expect(page.data.find((m) => m.id === 'gpt-4o-mini')?.owned_by).toBe('openai');
    const one = await b.openai().models.retrieve('gpt-4o-mini');
    expect(one.id).toBe('gpt-4o-mini');
  });

  it('refuses a model without a price unless self-use mode is on', async () => {
    const err = await b
      .openai()
      .chat.completions.create({ model: 'no-price-model', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 500 });
    expect((err as { error: { message: string } }).error.message).toContain('模型 no-price-model 倍率或价格未配置');
    await setOption(b, 'SelfUseModeEnabled', 'true');
    try {
      const res = await b.openai().chat.completions.create({ model: 'no-price-model', messages: [{ role: 'user', content: 'x' }] });
      expect(res.choices[0]!.message.content).toBeTruthy();
    } finally {
      await setOption(b, 'SelfUseModeEnabled', 'false');
    }
  });

  it('answers in OpenAI error shape with the request id; unknown paths 404, unimplemented 501', async () => {
    const res = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini' }),
    });
    expect(res.status).toBe(400);
    const id = res.headers.get('x-oneapi-request-id')!;
    expect(id).toMatch(/^\d{14}\d+[0-9a-zA-Z]{8}$/);
    expect(await res.json()).toEqual({ error: { message: `field messages is required (request id: ${id})`, type: 'new_api_error', param: '', code: 'invalid_text_request' } });

    const notFound = await fetch(`${b.s.url}/v1/nothing/here`, { method: 'POST' });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ error: { message: 'Invalid URL (POST /v1/nothing/here)', type: 'invalid_request_error', param: '', code: '' } });

    const files = await fetch(`${b.s.url}/v1/files`, { headers: { authorization: `Bearer ${b.token.apiKey}` } });
    expect(files.status).toBe(501);
    expect(((await files.json()) as { error: { code: string } }).error.code).toBe('api_not_implemented');

    const badJson = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid request, 无效的请求, /);
  });

  it('answers CORS preflights and accepts gzip request bodies', async () => {
    const pre = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(pre.status).toBe(204);
    // Any origin, never credentials (tests/relay/cors.test.ts has the whole header set).
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');

    fake.script({ text: 'zipped' });
    const res = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('zipped');
  });

  it("answers OpenAI's old billing endpoints for the token", async () => {
    const limited = await seedToken(b.s, b.user.id, { unlimited_quota: false, remain_quota: 1_000_000 });
    await b.s.app.ctx.db.updateTable('tokens').set({ used_quota: 500_000 }).where('id', '=', limited.id).execute();
    const headers = { authorization: `Bearer ${limited.apiKey}` };
    const sub = await fetch(`${b.s.url}/dashboard/billing/subscription`, { headers });
    expect(await sub.json()).toEqual({ object: 'billing_subscription', has_payment_method: true, soft_limit_usd: 3, hard_limit_usd: 3, system_hard_limit_usd: 3, access_until: 0 });
    const usage = await fetch(`${b.s.url}/v1/dashboard/billing/usage`, { headers });
    expect(await usage.json()).toEqual({ object: 'list', total_usage: 100 });
    const bad = await fetch(`${b.s.url}/v1/dashboard/billing/usage`, { headers: { authorization: 'Bearer sk-nothing' } });
    expect(bad.status).toBe(200);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^无效的令牌/);
  });
});
