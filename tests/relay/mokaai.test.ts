/**
 * MokaAI M3E channels (type 44) through the real `openai` client: embeddings at `<base>/embeddings`,
 * floats and the SDK's default base64, the upstream's usage billed exactly; errors passed on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { m3eVector, startFakeMokaAI, type FakeMokaAI } from '../fakes/mokaai';
import { billedOnce, notBilled, setRatios, startBench, type Bench } from './harness';
import { seedChannel } from './seed';

describeEachDialect('MokaAI channels', (dialect) => {
  let fake: FakeMokaAI;
  let b: Bench;
  beforeAll(async () => {
    fake = await startFakeMokaAI();
    b = await startBench(dialect);
    await setRatios(b, { 'm3e-base': 2 });
    await seedChannel(b.s, { type: 44, base_url: fake.url, key: 'moka-fake-good', models: 'm3e-base' });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  const charged = async (run: () => Promise<unknown>) => (await billedOnce(b, run)).quota;

  it('embeddings, floats and base64, billed by the upstream usage', async () => {
    const cost = await charged(async () => {
      const res = await b.openai().embeddings.create({ model: 'm3e-base', input: ['你好', '世界和平'], encoding_format: 'float' });
      expect(res.data.map((d) => d.embedding)).toEqual([m3eVector('你好', 0), m3eVector('世界和平', 1)]);
      expect(res.usage.prompt_tokens).toBe(6);
    });
    expect(cost).toBe(6 * 2);
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/embeddings');
    expect(sent.headers.authorization).toBe('Bearer moka-fake-good');
    const res = await b.openai().embeddings.create({ model: 'm3e-base', input: 'abc' });
    expect(res.data[0]!.embedding).toEqual(m3eVector('abc', 0));
  });

  it('chat is refused as not supported; an upstream error is passed on and billed nothing', async () => {
    const chat = await b
      .openai()
      .chat.completions.create({ model: 'm3e-base', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(chat).toMatchObject({ status: 400 });
    await notBilled(b, async () => {
      const err = await b
        .openai()
        .embeddings.create({ model: 'm3e-base', input: [1, 2, 3] as unknown as string[], encoding_format: 'float' })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 400 });
      expect((err as { error: { message: string } }).error.message).toContain('input must be a string or a list of strings');
    });
  });
});
