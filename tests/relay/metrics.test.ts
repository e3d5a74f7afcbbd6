/**
 * `/metrics` (Prometheus): relayed requests against fake upstreams move the request counters,
 * latency histograms, token and quota counters by exactly what was relayed and billed, with the
 * channel, model and status class as labels; upstream errors, retries, the breaker, the ledger
 * and the caches show; the guard answers 401 / 403, and metrics that are off answer 404 and
 * record nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, DIALECTS } from '../helpers/dialects';
import { startTestServer } from '../helpers/server';
import { histogramOf, parseExposition, samplesOf, valueOf, type Exposition } from '../helpers/prometheus';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { readChatStream, setOption, startBench, type Bench } from './harness';
import { seedChannel } from './seed';
import { MAX_MODELS } from '../../src/server/metrics/relay-metrics';
import { loadConfig, projectRoot } from '../../src/server/config';

const TOKEN = 'scrape-secret-0123456789';

async function scrape(url: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }): Promise<Exposition> {
  const res = await fetch(`${url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

describeEachDialect('Prometheus metrics of the relay', (dialect) => {
  let primary: FakeOpenAI;
  let backup: FakeOpenAI;
  let b: Bench;
  let high: number;
  let low: number;
  const model = 'gpt-4o-mini';

  beforeAll(async () => {
    [primary, backup] = await Promise.all([startFakeOpenAI(), startFakeOpenAI()]);
    b = await startBench(dialect, { env: { METRICS_TOKEN: TOKEN } });
    high = await seedChannel(b.s, { type: 1, base_url: primary.url, models: model, priority: 10 });
    low = await seedChannel(b.s, { type: 1, base_url: backup.url, models: model, priority: 0 });
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([primary?.close(), backup?.close()]);
  });

  /** Quota of the consume logs written for a channel (what its settlements charged). */
  async function loggedQuota(channelId: number): Promise<number> {
    const row = await b.s.app.ctx.db
      .selectFrom('logs')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('q'))
      .where('channel_id', '=', channelId)
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    return Number(row.q);
  }

  it('counts answers, failures and refusals with their latency, tokens and quota by channel, model and status class', async () => {
    await setOption(b, 'RetryTimes', '1');
    await b.flush();
    const before = await scrape(b.s.url);
    const ch = (id: number) => ({ channel: String(id), model });
    const [quotaHighBefore, quotaLowBefore] = [await loggedQuota(high), await loggedQuota(low)];

    // Two answers from the top channel: one whole, one streamed.
    primary.script({ text: 'one two three', usage: { prompt: 20, completion: 7 } });
    const whole = await b.openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(whole.choices[0]!.message.content).toBe('one two three');
    primary.script({ text: 'a streamed answer', usage: { prompt: 5, completion: 3 } });
    const streamed = await readChatStream(await b.openai().chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    expect(streamed.text).toBe('a streamed answer');
    // A 500 on the top channel, retried on the lower one, which answers.
    primary.script({ error: { status: 500, message: 'upstream exploded', type: 'server_error' } });
    backup.script({ text: 'from the backup', usage: { prompt: 11, completion: 4 } });
    const retried = await b.openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(retried.choices[0]!.message.content).toBe('from the backup');
    // A 400 of the top channel: the client's fault, not retried, passed on.
    primary.script({ error: { status: 400, message: 'bad field', type: 'invalid_request_error' } });
    const refusedUpstream = await b
      .openai()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: { status?: number }) => e);
    expect((refusedUpstream as { status?: number }).status).toBe(400);
    // A wrong key: refused before any channel.
    const badKey = await b
      .openai('sk-not-a-real-key')
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: { status?: number }) => e);
    expect((badKey as { status?: number }).status).toBe(401);
    await b.flush();

    const after = await scrape(b.s.url);
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);

    expect(after.types.get('switchyard_relay_requests_total')).toBe('counter');
    expect(delta('switchyard_relay_requests_total', { ...ch(high), status_class: '2xx' })).toBe(2);
    expect(delta('switchyard_relay_requests_total', { ...ch(low), status_class: '2xx' })).toBe(1);
    expect(delta('switchyard_relay_requests_total', { ...ch(high), status_class: '4xx' })).toBe(1);
    expect(delta('switchyard_relay_requests_total', { channel: 'none', model: 'none', status_class: '4xx' })).toBe(1);
    expect(delta('switchyard_relay_requests_total', { ...ch(high), status_class: '5xx' })).toBe(0);

    // Latency: one observation per answer, in both histograms, buckets cumulative up to +Inf.
    expect(after.types.get('switchyard_relay_first_byte_seconds')).toBe('histogram');
    for (const name of ['switchyard_relay_first_byte_seconds', 'switchyard_relay_duration_seconds']) {
      const h = histogramOf(after, name, { ...ch(high), status_class: '2xx' });
      expect(h.count - histogramOf(before, name, { ...ch(high), status_class: '2xx' }).count).toBe(2);
      expect(h.buckets.get('+Inf')).toBe(h.count);
      const counts = [...h.buckets.values()];
      expect(counts).toEqual([...counts].sort((x, y) => x - y));
      expect(h.buckets.size).toBe(16);
      expect(histogramOf(after, name, { ...ch(low), status_class: '2xx' }).count - histogramOf(before, name, { ...ch(low), status_class: '2xx' }).count).toBe(1);
    }
    // The first byte never comes after the end.
    const firstByte = histogramOf(after, 'switchyard_relay_first_byte_seconds', { ...ch(high), status_class: '2xx' });
    const duration = histogramOf(after, 'switchyard_relay_duration_seconds', { ...ch(high), status_class: '2xx' });
    expect(firstByte.sum).toBeLessThanOrEqual(duration.sum);

    // Tokens as the upstreams reported them; quota exactly what the consume logs charged.
    expect(delta('switchyard_relay_prompt_tokens_total', ch(high))).toBe(25);
    expect(delta('switchyard_relay_completion_tokens_total', ch(high))).toBe(10);
    expect(delta('switchyard_relay_prompt_tokens_total', ch(low))).toBe(11);
    expect(delta('switchyard_relay_completion_tokens_total', ch(low))).toBe(4);
    const quotaHigh = (await loggedQuota(high)) - quotaHighBefore;
    const quotaLow = (await loggedQuota(low)) - quotaLowBefore;
    expect(quotaHigh).toBeGreaterThan(0);
    expect(delta('switchyard_relay_quota_billed_total', ch(high))).toBe(quotaHigh);
    expect(delta('switchyard_relay_quota_billed_total', ch(low))).toBe(quotaLow);

    // The 500 and the 400 are upstream errors of the top channel; only the 500 was retried.
    expect(delta('switchyard_upstream_errors_total', { channel: String(high), status_class: '5xx' })).toBe(1);
    expect(delta('switchyard_upstream_errors_total', { channel: String(high), status_class: '4xx' })).toBe(1);
    expect(delta('switchyard_upstream_retries_total', { channel: String(high) })).toBe(1);
    expect(delta('switchyard_upstream_retries_total', { channel: String(low) })).toBe(0);

    // The three answers' settlements went through the ledger (refunds of memory holds need no
    // write) and were all written.
    expect(histogramOf(after, 'switchyard_ledger_settlement_lag_seconds', {}).count - histogramOf(before, 'switchyard_ledger_settlement_lag_seconds', {}).count).toBeGreaterThanOrEqual(3);
    expect(valueOf(after, 'switchyard_ledger_pending_settlements')).toBe(0);
    expect(valueOf(after, 'switchyard_ledger_open_reservations', { kind: 'memory' })).toBe(0);
    expect(valueOf(after, 'switchyard_ledger_open_reservations', { kind: 'journaled' })).toBe(0);
    expect(samplesOf(after, 'switchyard_ledger_open_reservations', { kind: 'journaled' })).toHaveLength(1);
  });

  it('shows channel health, cache ages and the process metrics', async () => {
    // The top channel's last counted failure was the 500 (a 400 does not count against it).
    const e = await scrape(b.s.url);
    expect(valueOf(e, 'switchyard_channel_status', { channel: String(high) })).toBe(1);
    expect(valueOf(e, 'switchyard_channel_circuit_open', { channel: String(high) })).toBe(0);
    expect(samplesOf(e, 'switchyard_channel_circuit_open', { channel: String(high) })).toHaveLength(1);
    expect(valueOf(e, 'switchyard_channel_consecutive_failures', { channel: String(high) })).toBe(1);
    expect(valueOf(e, 'switchyard_channel_consecutive_failures', { channel: String(low) })).toBe(0);
    // Enough failures in a row open the circuit.
    await setOption(b, 'RetryTimes', '0');
    for (let i = 0; i < 4; i++) {
      primary.script({ error: { status: 502, message: 'bad gateway', type: 'server_error' } });
      const failed = await b
        .openai()
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
        .catch((err: { status?: number }) => err);
      expect((failed as { status?: number }).status).toBe(502);
    }
    const open = await scrape(b.s.url);
    expect(valueOf(open, 'switchyard_channel_circuit_open', { channel: String(high) })).toBe(1);
    expect(valueOf(open, 'switchyard_channel_consecutive_failures', { channel: String(high) })).toBe(5);

    const syncSeconds = b.s.app.ctx.config.syncFrequency;
    for (const cache of ['channels', 'options']) {
      const age = valueOf(e, 'switchyard_cache_age_seconds', { cache });
      expect(samplesOf(e, 'switchyard_cache_age_seconds', { cache })).toHaveLength(1);
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThanOrEqual(syncSeconds + 5);
    }
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_active_handles_total', 'process_resident_memory_bytes']) {
      expect(e.types.has(name)).toBe(true);
    }
    expect(valueOf(e, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('answers only a scrape with the bearer token', async () => {
    const none = await fetch(`${b.s.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(((await none.json()) as { message: string }).message).toContain('METRICS_TOKEN');
    const wrong = await fetch(`${b.s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const basic = await fetch(`${b.s.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } });
    expect(basic.status).toBe(401);
  });
});

describe('metrics model labels are bounded', () => {
  it(`folds model names past ${MAX_MODELS} into "other"`, async () => {
    const { RelayMetrics } = await import('../../src/server/metrics/relay-metrics');
    const m = new RelayMetrics();
    for (let i = 0; i < MAX_MODELS + 50; i++) m.answered(1, `model-${i}`, 200, 1, 2);
    m.answered(1, 'gpt-4-gizmo-g-abc', 200, 1, 2);
    const models = new Set([...m.requestCounts()].map((s) => s.labels.model));
    expect(models.size).toBe(MAX_MODELS + 1);
    expect(models.has('other')).toBe(true);
    expect([...m.requestCounts()].find((s) => s.labels.model === 'other')!.value).toBe(51);
  });
});

describe.skipIf(!DIALECTS[0]!.url)('metrics access', () => {
  const sqlite = DIALECTS[0]!;

  it('is a 404 when off, and the relay then records nothing', async () => {
    const s = await startTestServer(sqlite);
    try {
      const res = await fetch(`${s.url}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, message: '接口不存在' });
      const { relayOf } = await import('../../src/server/relay/runtime');
      expect(relayOf(s.app.ctx)!.metrics).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it('answers the allowed addresses only (403 elsewhere), and with a token set too, needs both', async () => {
    const elsewhere = await startTestServer(sqlite, { env: { METRICS_ALLOW_IPS: '10.0.0.0/8, 192.168.1.7' } });
    try {
      const res = await fetch(`${elsewhere.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toContain('METRICS_ALLOW_IPS');
    } finally {
      await elsewhere.close();
    }
    const loopback = await startTestServer(sqlite, { env: { METRICS_ALLOW_IPS: '127.0.0.0/8,::1', METRICS_TOKEN: TOKEN } });
    try {
      expect((await fetch(`${loopback.url}/metrics`)).status).toBe(401);
      const e = await scrape(loopback.url);
      expect(e.types.get('switchyard_relay_requests_total')).toBe('counter');
    } finally {
      await loopback.close();
    }
  });

  it('refuses to start on an allow-list entry that is no address', () => {
    const env = { SESSION_SECRET: 'test-session-secret-0123456789abcdef', METRICS_ALLOW_IPS: '10.0.0.0/8, localhost' };
    expect(() => loadConfig(env, projectRoot())).toThrow('METRICS_ALLOW_IPS: "localhost" is neither an IP address nor a CIDR range');
    expect(loadConfig({ ...env, METRICS_ALLOW_IPS: ' 10.0.0.0/8 ,, ::1 ' }, projectRoot()).metricsAllowIps).toEqual(['10.0.0.0/8', '::1']);
  });
});
