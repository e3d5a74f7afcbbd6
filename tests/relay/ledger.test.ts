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
    const results = await Promise.all(Array.from({ length: 60 }, () => ledger.reserve({ userId: user.id, tokenId: token.id, tokenLimited: false, amount: 30 })));
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

  it('holds in memory once it knows the balance, and never admits more than the balance across both paths', async () => {
    const user = await seedUser(s, 1000);
    const token = await seedToken(s, user.id, { unlimited_quota: true });
    const req = { userId: user.id, tokenId: token.id, tokenLimited: false };
    // The first reservation is journaled; its transaction tells the ledger the balance (990).
    const first = await ledger.reserve({ ...req, amount: 10 });
    expect(first.ok).toBe(true);
    expect((await balances(s, user.id, token.id)).openCount).toBe(1);
    const results = await Promise.all(Array.from({ length: 60 }, () => ledger.reserve({ ...req, amount: 30 })));
    const ok = results.filter((r): r is { ok: true; id: string } => r.ok);
    // 990 pays for 33 of them: half of it (16) in memory, the rest journaled against what is
    // left once the memory holds are counted.
    expect(ok).toHaveLength(33);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, reason: 'user', quota: 0 });
    const mid = await balances(s, user.id, token.id);
    expect(mid.openCount).toBe(1 + 17);
    expect(mid.quota).toBe(1000 - 10 - 17 * 30);
    // Every one of them costs 30: the memory holds are charged whole, the journaled ones nothing more.
    const settled = await Promise.all(
      [first, ...ok].map((r, n) =>
        ledger.settle({
          reservationId: r.ok ? r.id : '',
          userId: user.id,
          tokenId: token.id,
          tokenLimited: false,
          channelId,
          reserved: n === 0 ? 10 : 30,
          quota: n === 0 ? 10 : 30,
          countUsage: true,
          log: consumeLog(user.id, token.id, channelId),
        }),
      ),
    );
    expect(settled.map((r) => r.charged)).toEqual([10, ...Array.from({ length: 33 }, () => 30)]);
    const after = await balances(s, user.id, token.id);
    expect(after).toMatchObject({ quota: 0, openCount: 0, logSum: 1000, usedQuota: 1000, tokenUsed: 1000 });
  });

  it('writes nothing for a failed request held in memory, and learns balances changed elsewhere', async () => {
    const user = await seedUser(s, 10_000);
    const token = await seedToken(s, user.id, { unlimited_quota: false, remain_quota: 8000 });
    const req = { userId: user.id, tokenId: token.id, tokenLimited: true };
    const first = await ledger.reserve({ ...req, amount: 100 });
    expect(first.ok).toBe(true);
    const held = await ledger.reserve({ ...req, amount: 100 });
    expect(held.ok).toBe(true);
    if (!held.ok || !first.ok) return;
    const before = await balances(s, user.id, token.id);
    expect(before).toMatchObject({ quota: 9900, tokenRemain: 7900, openCount: 1 });
    const refund = await ledger.settle({ reservationId: held.id, userId: user.id, tokenId: token.id, tokenLimited: true, channelId, reserved: 100, quota: 0, countUsage: false });
    expect(refund.charged).toBe(0);
    expect(await balances(s, user.id, token.id)).toEqual(before);
    // The token is cut to 300 by an administrator; the next batch reads the new figure, so
    // memory may then hold at most half of it.
    await s.app.ctx.db.updateTable('tokens').set({ remain_quota: 300 }).where('id', '=', token.id).execute();
    await ledger.settle({
      reservationId: first.id,
      userId: user.id,
      tokenId: token.id,
      tokenLimited: true,
      channelId,
      reserved: 100,
      quota: 100,
      countUsage: true,
      log: consumeLog(user.id, token.id, channelId),
    });
    const more = await Promise.all(Array.from({ length: 5 }, () => ledger.reserve({ ...req, amount: 100 })));
    expect(more.filter((r) => r.ok)).toHaveLength(3);
    expect(more.find((r) => !r.ok)).toEqual({ ok: false, reason: 'token', remain: 0 });
    for (const r of more) if (r.ok) await ledger.settle({ reservationId: r.id, userId: user.id, tokenId: token.id, tokenLimited: true, channelId, reserved: 100, quota: 0, countUsage: false });
    await ledger.flush();
    expect(await balances(s, user.id, token.id)).toMatchObject({ tokenRemain: 300, openCount: 0, quota: 9900 });
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
