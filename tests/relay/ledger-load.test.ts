/**
 * The ledger under load, on every database: 500 concurrent requests from the real `openai`
 * client, mixed — answered (stream and not), failed upstream, abandoned by the client mid-
 * stream — against a balance too small for all of them. Afterwards the books must balance:
 * sum of consume-log quota = used_quota of user, token and channel = what left the user's
 * and the token's balance; no balance below zero; no reservation left open.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI, type FakeRequest } from '../fakes/openai';
import type { ScriptedReply } from '../fakes/script';
import { setOption, startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const REQUESTS = 500;
const USER_QUOTA = 12_000;
const TOKEN_QUOTA = 11_000;

type Kind = 'ok' | 'ok-stream' | 'fail' | 'abort';

function kindOf(n: number): Kind {
  return (['ok', 'ok-stream', 'fail', 'abort', 'ok', 'ok-stream'] as const)[n % 6]!;
}

/** The fake decides by the request's own text, so concurrency cannot mix replies up. */
function replyFor(request: FakeRequest): ScriptedReply {
  const body = JSON.parse(request.body) as { messages: { content: string }[] };
  const [kind, nText] = body.messages[0]!.content.split(':') as [Kind, string];
  const n = Number(nText);
  if (kind === 'fail') return { error: { status: 500, message: 'upstream failed', type: 'server_error' } };
  if (kind === 'abort') return { text: 'slow words keep coming one by one until the client leaves', delayMs: 40 };
  return { text: 'fine answer', usage: { prompt: 100 + (n % 13) * 10, completion: 50 + (n % 7) * 20 } };
}

describeEachDialect('relay ledger under 500 concurrent mixed requests', (dialect) => {
  let fake: FakeOpenAI;
  let b: Bench;
  let channelId: number;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    b = await startBench(dialect, { quota: USER_QUOTA, token: { unlimited_quota: false, remain_quota: TOKEN_QUOTA } });
    channelId = await seedChannel(b.s, { type: 1, base_url: fake.url, models: 'gpt-4o-mini' });
    await setOption(b, 'RetryTimes', '0');
    // Reservations of 100 tokens × 0.075: small enough that many get through before the money runs out.
    await setOption(b, 'PreConsumedQuota', '100');
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  it('balances to the unit: logs = used quota of user, token and channel = money taken; nothing below zero or left open', async () => {
    fake.script(...Array.from({ length: REQUESTS * 2 }, () => replyFor));
    const client = new OpenAI({ apiKey: b.token.apiKey, baseURL: `${b.s.url}/v1`, maxRetries: 0, timeout: 60_000 });
    const outcome = { answered: 0, failed: 0, aborted: 0, refused: 0 };
    const started = Date.now();
    await Promise.all(
      Array.from({ length: REQUESTS }, async (_, n) => {
        const kind = kindOf(n);
        const messages = [{ role: 'user' as const, content: `${kind}:${n}` }];
        try {
          if (kind === 'ok') {
            await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
          } else {
            const controller = new AbortController();
            const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true }, { signal: controller.signal });
            let pieces = 0;
            for await (const c of stream) {
              if (c.choices[0]?.delta?.content && ++pieces === 2 && kind === 'abort') {
                controller.abort();
                break;
              }
            }
            if (kind === 'abort') {
              outcome.aborted++;
              return;
            }
          }
          outcome.answered++;
        } catch (err) {
          const status = (err as { status?: number }).status;
          // Refused before any upstream call: 403 at reservation, 401 once the token is exhausted.
          if (status === 403 || status === 401) outcome.refused++;
          else outcome.failed++;
        }
      }),
    );
    // Abandoned streams finish on the server after the client left.
    await expect.poll(async () => (await balances(b.s, b.user.id, b.token.id)).openCount, { timeout: 20_000, interval: 100 }).toBe(0);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    const channel = await b.s.app.ctx.db.selectFrom('channels').select('used_quota').where('id', '=', channelId).executeTakeFirstOrThrow();
    const figures = {
      dialect: dialect.name,
      requests: REQUESTS,
      ...outcome,
      seconds: (Date.now() - started) / 1000,
      logs: after.logCount,
      logQuota: after.logSum,
      userUsed: after.usedQuota,
      tokenUsed: after.tokenUsed,
      channelUsed: Number(channel.used_quota),
      userQuota: after.quota,
      tokenRemain: after.tokenRemain,
    };
    console.log('ledger figures', JSON.stringify(figures));
    expect(outcome.answered + outcome.failed + outcome.aborted + outcome.refused).toBe(REQUESTS);
    expect(outcome.answered).toBeGreaterThan(50);
    expect(outcome.failed).toBeGreaterThan(20);
    expect(outcome.aborted).toBeGreaterThan(20);
    expect(outcome.refused).toBeGreaterThan(0);
    expect(after.logSum).toBeGreaterThan(0);
    expect(after.usedQuota).toBe(after.logSum);
    expect(after.tokenUsed).toBe(after.logSum);
    expect(Number(channel.used_quota)).toBe(after.logSum);
    expect(USER_QUOTA - after.quota).toBe(after.logSum);
    expect(TOKEN_QUOTA - after.tokenRemain).toBe(after.logSum);
    expect(after.quota).toBeGreaterThanOrEqual(0);
    expect(after.tokenRemain).toBeGreaterThanOrEqual(0);
    expect(after.openCount).toBe(0);
  }, 180_000);
});
