/**
 * The ledger on its own, on every database: reservations never take more than there is,
 * settlements apply exactly the difference once, clamp at zero and say what they charged,
 * and recovery refunds what a dead process left open.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';
import { Ledger } from '../../src/server/relay/billing/ledger';
import { recoverReservations } from '../../src/server/relay/billing/recovery';
import type { SettleItem } from '../../src/server/relay/billing/ledger-sql';
import { balances, seedChannel, seedToken, seedUser } from './seed';

function consumeLog(userId: number, tokenId: number, channelId: number): NonNullable<SettleItem['log']> {
  return {
    user_id: userId,
    created_at: Math.floor(Date.now() / 1000),
    type: 2,
    content: 'test',
    username: 'x',
    token_name: 't',
    token_id: tokenId,
    model_name: 'gpt-4o',
    prompt_tokens: 1,
    completion_tokens: 1,
    use_time: 0,
    is_stream: false,
    channel_id: channelId,
    group: 'default',
    other: '{}',
  };
}

describeEachDialect('relay ledger', (dialect) => {
  let s: TestServer;
  let channelId: number;
  let ledger: Ledger;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    channelId = await seedChannel(s, { models: 'gpt-4o' });
    ledger = new Ledger(s.app.ctx, 'ledger-test');
  });
  afterAll(async () => {
    await ledger?.stop();
    await s?.close();
  });

  it('takes exactly what the balance allows under concurrency and never goes below zero', async () => {
    const user = await seedUser(s, 1000);
    const token = await seedToken(s, user.id, { unlimited_quota: true });
    const results = await Promise.all(
      Array.from({ length: 60 }, () => ledger.reserve({ userId: user.id, tokenId: token.id, tokenLimited: false, amount: 30 })),
    );
    const ok = results.filter((r) => r.ok);
    expect(ok).toHaveLength(33);
    const refused = results.find((r) => !r.ok);
    expect(refused).toMatchObject({ ok: false, reason: 'user', quota: 10 });
    const b = await balances(s, user.id, token.id);
    expect(b.quota).toBe(10);
    expect(b.openSum).toBe(990);
    expect(b.openCount).toBe(33);
  });

  it('settles the difference once, clamps a charge to what is left and logs what was charged', async () => {
    const user = await seedUser(s, 1000);
    const token = await seedToken(s, user.id, { unlimited_quota: false, remain_quota: 5000 });
    const a = await ledger.reserve({ userId: user.id, tokenId: token.id, tokenLimited: true, amount: 400 });
    const b = await ledger.reserve({ userId: user.id, tokenId: token.id, tokenLimited: true, amount: 400 });
    const c = await ledger.reserve({ userId: user.id, tokenId: token.id, tokenLimited: true, amount: 100 });
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    const base = { userId: user.id, tokenId: token.id, tokenLimited: true, channelId, countUsage: true, log: consumeLog(user.id, token.id, channelId) };
    // a costs less (refund 300), b costs 700 more than reserved, c fails (refund 100).
    const results = await Promise.all([
      ledger.settle({ ...base, reservationId: a.id, reserved: 400, quota: 100 }),
      ledger.settle({ ...base, reservationId: b.id, reserved: 400, quota: 1100 }),
      ledger.settle({ ...base, reservationId: c.id, reserved: 100, quota: 0, countUsage: false, log: undefined }),
    ]);
    // 100 left after reserving; +300 +100 refunds = 500 available for b's extra 700 → 500.
    expect(results.map((r) => r.charged)).toEqual([100, 900, 0]);
    expect(results[0]!.userQuotaAfter).toBe(0);
    const after = await balances(s, user.id, token.id);
    expect(after.quota).toBe(0);
    expect(after.logSum).toBe(1000);
    expect(after.usedQuota).toBe(1000);
    expect(after.tokenUsed).toBe(1000);
    expect(after.tokenRemain).toBe(4000);
    expect(after.requestCount).toBe(2);
    expect(after.openCount).toBe(0);
  });

  it('refuses with the token reason when a limited token cannot cover the estimate', async () => {
    const user = await seedUser(s, 100000);
    const token = await seedToken(s, user.id, { unlimited_quota: false, remain_quota: 50 });
    const r = await ledger.reserve({ userId: user.id, tokenId: token.id, tokenLimited: true, amount: 80 });
    expect(r).toEqual({ ok: false, reason: 'token', remain: 50 });
    const b = await balances(s, user.id, token.id);
    expect(b.quota).toBe(100000);
    expect(b.tokenRemain).toBe(50);
  });

  it('charges the whole cost when the reservation was already refunded by a recovery', async () => {
    const user = await seedUser(s, 1000);
    const token = await seedToken(s, user.id);
    const dead = new Ledger(s.app.ctx, 'node-a');
    const r = await dead.reserve({ userId: user.id, tokenId: token.id, tokenLimited: false, amount: 200 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const live = new Ledger(s.app.ctx, 'node-a');
    const recovered = await recoverReservations(s.app.ctx, live.node, live.instance);
    expect(recovered.reservations).toBeGreaterThanOrEqual(1);
    expect((await balances(s, user.id, token.id)).quota).toBe(1000);
    const system = await s.app.ctx.db.selectFrom('logs').select('content').where('user_id', '=', user.id).where('type', '=', 4).execute();
    expect(system.map((l) => l.content).join()).toContain('退还 1 个未结算请求的预扣额度');
    const { charged } = await dead.settle({
      reservationId: r.id,
      userId: user.id,
      tokenId: token.id,
      tokenLimited: false,
      channelId,
      reserved: 200,
      quota: 150,
      countUsage: true,
      log: consumeLog(user.id, token.id, channelId),
    });
    expect(charged).toBe(150);
    const b = await balances(s, user.id, token.id);
    expect(b.quota).toBe(850);
    expect(b.logSum).toBe(150);
    await dead.stop();
    await live.stop();
  });

  it('keeps quota taken = logs + open reservations through a mixed concurrent load', async () => {
    const user = await seedUser(s, 50_000);
    const token = await seedToken(s, user.id, { unlimited_quota: false, remain_quota: 40_000 });
    const jobs = Array.from({ length: 300 }, async (_, n) => {
      const amount = 50 + (n % 7) * 40;
      const r = await ledger.reserve({ userId: user.id, tokenId: token.id, tokenLimited: true, amount });
      if (!r.ok) return;
      const kind = n % 3;
      await ledger.settle({
        reservationId: r.id,
        userId: user.id,
        tokenId: token.id,
        tokenLimited: true,
        channelId,
        reserved: amount,
        quota: kind === 0 ? 0 : kind === 1 ? amount * 2 : Math.floor(amount / 3),
        countUsage: kind !== 0,
        ...(kind !== 0 ? { log: consumeLog(user.id, token.id, channelId) } : {}),
      });
    });
    await Promise.all(jobs);
    await ledger.flush();
    const b = await balances(s, user.id, token.id);
    expect(b.quota).toBeGreaterThanOrEqual(0);
    expect(b.tokenRemain).toBeGreaterThanOrEqual(0);
    expect(b.openCount).toBe(0);
    expect(50_000 - b.quota).toBe(b.logSum);
    expect(40_000 - b.tokenRemain).toBe(b.logSum);
    expect(b.usedQuota).toBe(b.logSum);
    expect(b.tokenUsed).toBe(b.logSum);
  });
});
