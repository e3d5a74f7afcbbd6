/**
 * A channel's `setting.proxy`: every upstream call of the channel (relay, streamed or not, the
 * console's channel test, balance refresh, upstream model list) goes through an HTTP CONNECT
 * or SOCKS5 proxy of the test's own, with its credentials; tunnels are pooled per proxy and
 * origin; a proxy that is down or refuses fails the call rather than letting it go direct;
 * an unusable address is refused when the channel is saved, and never shows its password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startConnectProxy, startSocks5Proxy, type TestProxy } from '../helpers/proxies';
import type { ApiClient } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { setOption, startBench, type Bench } from './harness';
import { seedChannel } from './seed';

const HTTP_AUTH = { user: 'relay', pass: 'http-pa55word' };
const SOCKS_AUTH = { user: 'relay', pass: 'socks-pa55word' };

describeEachDialect('channel proxy', (dialect) => {
  let b: Bench;
  let fake: FakeOpenAI;
  let root: ApiClient;
  const proxies: TestProxy[] = [];
  let counter = 0;
  let target = '';

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    target = new URL(fake.url).host;
    b = await startBench(dialect);
    // Each case has a model of its own, unpriced: self-use mode lets them through.
    await setOption(b, 'SelfUseModeEnabled', 'true');
    root = await b.s.root();
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
    await Promise.all(proxies.map((p) => p.close()));
  });

  async function proxy(kind: 'http' | 'socks5', auth?: { user: string; pass: string }): Promise<TestProxy> {
    const p = kind === 'http' ? await startConnectProxy(auth) : await startSocks5Proxy(auth);
    proxies.push(p);
    return p;
  }

  /** A channel on the fake serving one model of its own, through `proxyUrl`. */
  async function channel(proxyUrl: string, type = 1): Promise<{ id: number; model: string }> {
    const model = `gpt-proxied-${++counter}`;
    const id = await seedChannel(b.s, { type, base_url: fake.url, models: model, setting: JSON.stringify({ proxy: proxyUrl }) });
    return { id, model };
  }

  async function chat(model: string, stream: boolean): Promise<string> {
    const client = b.openai();
    if (!stream) return (await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })).choices[0]!.message.content ?? '';
    let text = '';
    for await (const chunk of await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true })) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  }

  for (const kind of ['http', 'socks5'] as const) {
    describe(`through a${kind === 'http' ? 'n HTTP CONNECT' : ' SOCKS5'} proxy with credentials`, () => {
      const auth = kind === 'http' ? HTTP_AUTH : SOCKS_AUTH;

      it('relays a non-streamed request through it, and the next one over the same pooled tunnel', async () => {
        const p = await proxy(kind, auth);
        const { model } = await channel(p.url);
        const before = fake.requests.length;
        fake.script({ text: 'through the proxy' });
        expect(await chat(model, false)).toBe('through the proxy');
        expect(p.tunnels).toEqual([target]);
        expect(await chat(model, false)).not.toBe('');
        expect(p.tunnels).toEqual([target]);
        expect(fake.requests.length - before).toBe(2);
        expect(fake.requests.slice(before).every((r) => p.carried.has(r.remotePort!))).toBe(true);
        expect(p.refused).toBe(0);
      });

      it('relays a streamed request through it', async () => {
        const p = await proxy(kind, auth);
        const { model } = await channel(p.url);
        fake.script({ text: 'streamed through' });
        expect(await chat(model, true)).toBe('streamed through');
        expect(p.tunnels).toEqual([target]);
        expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions' });
        expect(JSON.parse(fake.requests.at(-1)!.body)).toMatchObject({ model, stream: true });
        expect(p.carried.has(fake.requests.at(-1)!.remotePort!)).toBe(true);
      });

      it('tests the channel, refreshes its balance and lists its upstream models through it', async () => {
        const p = await proxy(kind, auth);
        const { id } = await channel(p.url);
        const before = fake.requests.length;
        const tested = await root.get(`/api/channel/test/${id}`);
        expect(tested.body).toMatchObject({ success: true, message: '' });
        fake.billing = { hardLimitUsd: 50, hasPaymentMethod: true, totalUsageCents: 1000 };
        expect((await root.get(`/api/channel/update_balance/${id}`)).body).toEqual({ success: true, message: '', balance: 40 });
        expect((await root.get(`/api/channel/fetch_models/${id}`)).body).toMatchObject({ success: true, data: expect.arrayContaining(['gpt-4o-mini']) });
        // A channel being created lists its models through the proxy its form names.
        const listed = await root.post('/api/channel/fetch_models', { type: 1, base_url: fake.url, key: 'sk-fake-good', setting: JSON.stringify({ proxy: p.url }) });
        expect(listed.body).toMatchObject({ success: true });
        const seen = fake.requests.slice(before);
        expect(seen.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/dashboard/billing/subscription', '/v1/dashboard/billing/usage', '/v1/models', '/v1/models']);
        expect(seen.every((r) => p.carried.has(r.remotePort!))).toBe(true);
        expect(p.tunnels.length).toBeGreaterThanOrEqual(1);
        expect(p.tunnels.every((t) => t === target)).toBe(true);
      });

      it('fails, without going direct and without showing the password, when the proxy refuses the credentials', async () => {
        const p = await proxy(kind, auth);
        const wrong = p.url.replace(encodeURIComponent(auth.pass), 'not-the-pa55word');
        const { id, model } = await channel(wrong);
        const before = fake.requests.length;
        const tested = await root.get(`/api/channel/test/${id}`);
        expect(tested.body.success).toBe(false);
        expect(JSON.stringify(tested.body)).not.toContain('not-the-pa55word');
        await expect(chat(model, false)).rejects.toMatchObject({ status: expect.any(Number) });
        const balance = await root.get(`/api/channel/update_balance/${id}`);
        expect(balance.body.success).toBe(false);
        expect(JSON.stringify(balance.body)).not.toContain('not-the-pa55word');
        expect(p.refused).toBeGreaterThanOrEqual(3);
        expect(p.tunnels).toEqual([]);
        expect(fake.requests.length).toBe(before);
      });
    });
  }

  it('fails instead of going direct when the proxy is down, or the stored address is unusable', async () => {
    const p = await proxy('socks5');
    const downUrl = p.url;
    await p.close();
    const down = await channel(downUrl);
    const before = fake.requests.length;
    const err = await chat(down.model, false).catch((e: unknown) => e as { status: number; message: string });
    expect(err).toMatchObject({ status: 500 });
    expect((err as { message: string }).message).toContain('请求上游地址失败');
    expect((await root.get(`/api/channel/test/${down.id}`)).body.success).toBe(false);

    // Written before addresses were checked (straight into the database): still never direct.
    const stored = await channel('http://127.0.0.1:1');
    await b.s.app.ctx.db
      .updateTable('channels')
      .set({ setting: JSON.stringify({ proxy: 'ftp://user:secret@127.0.0.1:21' }) })
      .where('id', '=', stored.id)
      .execute();
    await b.relay.channels.refresh();
    await expect(chat(stored.model, false)).rejects.toMatchObject({ status: 500 });
    const tested = await root.get(`/api/channel/test/${stored.id}`);
    expect(tested.body).toMatchObject({ success: false, message: '不支持的代理协议，仅支持 http、https、socks5 和 socks5h' });
    expect(fake.requests.length).toBe(before);
  });

  it('refuses an unusable proxy address when a channel is saved (400, nothing stored, no secret quoted)', async () => {
    const count = async () =>
      Number(
        (
          await b.s.app.ctx.db
            .selectFrom('channels')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const body = (proxy: unknown) => ({ name: 'proxied', type: 1, key: 'sk-fake-good', models: 'gpt-4o-mini', groups: ['default'], setting: JSON.stringify({ proxy }) });
    const cases: [unknown, string][] = [
      ['ftp://proxy.example:21', '不支持的代理协议，仅支持 http、https、socks5 和 socks5h'],
      ['admin:hunter22@proxy.example:1080', '不支持的代理协议，仅支持 http、https、socks5 和 socks5h'],
      ['socks5://', '代理地址格式错误，应为 协议://主机:端口'],
      ['not a url', '代理地址格式错误，应为 协议://主机:端口'],
      ['http://proxy.example:3128/some/path', '代理地址只能带空路径或 /'],
      ['http://user:hunter22@proxy.example:3128/?x=1', '代理地址不能带查询参数或片段'],
      ['socks5h://proxy.example:1080#frag', '代理地址不能带查询参数或片段'],
      [1080, '代理地址必须是字符串'],
    ];
    for (const [value, message] of cases) {
      const res = await root.post('/api/channel/', body(value));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message });
      expect(res.body.message).not.toContain('hunter22');
      expect(res.body.message).not.toContain('admin');
    }
    expect(await count()).toBe(before);

    // Usable ones are stored as given; an update is checked the same way.
    for (const ok of ['http://proxy.example:3128', 'https://u:p@proxy.example/', 'socks5://127.0.0.1:1080', 'socks5h://proxy.example', '']) {
      expect((await root.post('/api/channel/', body(ok))).body).toMatchObject({ success: true });
    }
    const id = (await b.s.app.ctx.db.selectFrom('channels').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    const update = await root.put('/api/channel/', { id, setting: JSON.stringify({ proxy: 'gopher://proxy.example' }) });
    expect(update.status).toBe(400);
    expect(update.body).toEqual({ success: false, message: '不支持的代理协议，仅支持 http、https、socks5 和 socks5h' });
    expect((await b.s.app.ctx.db.selectFrom('channels').select('setting').where('id', '=', id).executeTakeFirstOrThrow()).setting).toBe(JSON.stringify({ proxy: '' }));
  });
});
