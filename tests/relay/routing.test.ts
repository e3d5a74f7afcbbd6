/**
 * Channel choice under failure: retries walk down the priority tiers by the reference's
 * decision table, status_code_mapping changes the decision, model_mapping renames upstream,
 * a 429's Retry-After is passed on and keeps the channel out, repeated failures open the
 * circuit, and qualifying errors disable a channel automatically (at once, everywhere).
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { FAILURE_THRESHOLD } from '../../src/server/relay/channels/breaker';
import { setOption, startBench, type Bench } from './harness';
import { seedChannel } from './seed';

describeEachDialect('relay routing, retries and channel health', (dialect) => {
  let primary: FakeOpenAI;
  let backup: FakeOpenAI;
  let limited: FakeOpenAI;
  let b: Bench;
  beforeAll(async () => {
    [primary, backup, limited] = await Promise.all([startFakeOpenAI(), startFakeOpenAI(), startFakeOpenAI()]);
    limited.route('POST', '/v1/chat/completions', (_request, _fake, res: ServerResponse) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } }));
    });
    b = await startBench(dialect);
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([primary?.close(), backup?.close(), limited?.close()]);
  });

  const calls = (fake: FakeOpenAI) => fake.requests.filter((r) => r.path === '/v1/chat/completions').length;

  async function pair(model: string, top: Partial<Parameters<typeof seedChannel>[1]> = {}, topFake = primary): Promise<[number, number]> {
    const high = await seedChannel(b.s, { type: 1, base_url: topFake.url, models: model, priority: 10, ...top });
    const low = await seedChannel(b.s, { type: 1, base_url: backup.url, models: model, priority: 0 });
    return [high, low];
  }

  async function ask(model: string) {
    return b
      .openai()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: { status?: number; error?: { message?: string }; headers?: Headers }) => e);
  }

  it('retries on the next tier only when RetryTimes allows, and logs the channels tried', async () => {
    const [high, low] = await pair('gpt-4o-mini');
    await setOption(b, 'RetryTimes', '0');
    primary.script({ error: { status: 500, message: 'upstream exploded', type: 'server_error' } });
    const failed = (await ask('gpt-4o-mini')) as { status: number; error: { message: string } };
    expect(failed.status).toBe(500);
    expect(failed.error.message).toMatch(/^upstream exploded \(request id: /);

    await setOption(b, 'RetryTimes', '2');
    primary.script({ error: { status: 500, message: 'upstream exploded', type: 'server_error' } });
    backup.script({ text: 'from the backup' });
    const ok = (await ask('gpt-4o-mini')) as { choices: { message: { content: string } }[] };
    expect(ok.choices[0]!.message.content).toBe('from the backup');
    await b.flush();
    const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.channel_id).toBe(low);
    expect(JSON.parse(log.other).admin_info.use_channel).toEqual([String(high), String(low)]);
  });

  it('does not retry a 400 from an OpenAI channel; status_code_mapping turns it into a retry', async () => {
    await pair('gpt-4o');
    await setOption(b, 'RetryTimes', '2');
    const backupBefore = calls(backup);
    primary.script({ error: { status: 400, message: 'bad thing', type: 'invalid_request_error' } });
    expect(((await ask('gpt-4o')) as { status: number }).status).toBe(400);
    expect(calls(backup)).toBe(backupBefore);

    await pair('gpt-4', { status_code_mapping: '{"400":"500"}' });
    primary.script({ error: { status: 400, message: 'bad thing', type: 'invalid_request_error' } });
    backup.script({ text: 'rescued' });
    expect(((await ask('gpt-4')) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('rescued');
  });

  it('maps the model upstream and bills the requested name', async () => {
    const ratios = b.s.app.ctx.options.json<Record<string, number>>('ModelRatio');
    await setOption(b, 'ModelRatio', JSON.stringify({ ...ratios, 'house-model': 2 }));
    await seedChannel(b.s, { type: 1, base_url: primary.url, models: 'house-model', model_mapping: '{"house-model":"gpt-4o-mini"}' });
    primary.script({ text: 'mapped', usage: { prompt: 10, completion: 10 } });
    await ask('house-model');
    expect(JSON.parse(primary.requests.at(-1)!.body).model).toBe('gpt-4o-mini');
    await b.flush();
    const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.model_name).toBe('house-model');
    expect(JSON.parse(log.other)).toMatchObject({ is_model_mapped: true, upstream_model_name: 'gpt-4o-mini', model_ratio: 2 });
    // (10 + 10 × 1) × 2
    expect(log.quota).toBe(40);
  });

  it("passes a 429's Retry-After on, with the saturation message, and keeps the channel out meanwhile", async () => {
    const [high] = await pair('o1-mini', {}, limited);
    await setOption(b, 'RetryTimes', '0');
    const res = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'o1-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^当前分组上游负载已饱和，请稍后再试/);
    expect(b.relay.channels.breaker.isOpen(high)).toBe(true);
    backup.script({ text: 'not limited' });
    expect(((await ask('o1-mini')) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('not limited');
    expect(calls(limited)).toBe(1);
  });

  it('opens the circuit of a channel that keeps failing, so traffic stops reaching it', async () => {
    const [high] = await pair('gpt-4-turbo');
    await setOption(b, 'RetryTimes', '1');
    for (let i = 0; i < FAILURE_THRESHOLD; i++) {
      primary.script({ error: { status: 502, message: 'bad gateway', type: 'server_error' } });
      expect(((await ask('gpt-4-turbo')) as { choices?: unknown[] }).choices).toBeDefined();
    }
    expect(b.relay.channels.breaker.isOpen(high)).toBe(true);
    const before = calls(primary);
    for (let i = 0; i < 3; i++) expect(((await ask('gpt-4-turbo')) as { choices?: unknown[] }).choices).toBeDefined();
    expect(calls(primary)).toBe(before);
  });

  it('disables a channel automatically on a qualifying error, at once and with its reason', async () => {
    await setOption(b, 'AutomaticDisableChannelEnabled', 'true');
    await setOption(b, 'RetryTimes', '1');
    const [high] = await pair('gpt-4-32k');
    primary.script({ error: { status: 401, message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    backup.script({ text: 'backup answered' });
    expect(((await ask('gpt-4-32k')) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('backup answered');
    await expect.poll(async () => (await b.s.app.ctx.db.selectFrom('channels').select('status').where('id', '=', high).executeTakeFirstOrThrow()).status).toBe(3);
    const row = await b.s.app.ctx.db.selectFrom('channels').select('other_info').where('id', '=', high).executeTakeFirstOrThrow();
    expect(JSON.parse(row.other_info).status_reason).toBe('Incorrect API key provided');
    const before = calls(primary);
    for (let i = 0; i < 3; i++) await ask('gpt-4-32k');
    expect(calls(primary)).toBe(before);

    // A keyword of AutomaticDisableKeywords matches whatever the case.
    const [other] = await pair('chatgpt-4o-latest');
    primary.script({ error: { status: 403, message: 'YOU EXCEEDED YOUR CURRENT QUOTA, please check', type: 'requests' } });
    backup.script({ text: 'ok' });
    await ask('chatgpt-4o-latest');
    await expect.poll(async () => (await b.s.app.ctx.db.selectFrom('channels').select('status').where('id', '=', other).executeTakeFirstOrThrow()).status).toBe(3);
    await setOption(b, 'AutomaticDisableChannelEnabled', 'false');
  });

  it('hides the upstream address of a network failure from the client', async () => {
    await setOption(b, 'RetryTimes', '0');
    await seedChannel(b.s, { type: 1, base_url: 'http://127.0.0.1:1', models: 'gpt-3.5-turbo' });
    const failed = (await ask('gpt-3.5-turbo')) as { status: number; error: { message: string; code: string } };
    expect(failed.status).toBe(500);
    expect(failed.error.message).toMatch(/^请求上游地址失败 \(request id: /);
    expect(failed.error.code).toBe('do_request_failed');
  });
});
