/**
 * The relay's token cache moves by exactly what the database moved (issue #12, item 6): a
 * charge clamped because the user could not cover it must not leave the cached token below
 * its real remainder, or the token is refused after a top-up until the next reload.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { changeEvents } from '../../src/server/plumbing/change-events';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const USER_QUOTA = 100_000;
const TOKEN_REMAIN = 300_000;

describeEachDialect('relay token cache after a clamped charge', (dialect) => {
  let fake: FakeOpenAI;
  let b: Bench;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    b = await startBench(dialect, { quota: USER_QUOTA, token: { unlimited_quota: false, remain_quota: TOKEN_REMAIN } });
    await seedChannel(b.s, { type: 1, base_url: fake.url, models: 'clamp-model' });
    // 100 quota per prompt token: 4,000 prompt tokens cost 400,000, more than the user has.
    await b.s.app.ctx.options.setInternal('ModelRatio', JSON.stringify({ 'clamp-model': 100 }));
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  it('a token is usable right after the user is topped up', async () => {
    fake.script({ text: 'expensive', usage: { prompt: 4000, completion: 0 } });
    await b.openai().chat.completions.create({ model: 'clamp-model', messages: [{ role: 'user', content: 'hi' }] });
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    // The user had 100,000: that is what was charged, to user and token alike.
    expect(after.quota).toBe(0);
    expect(after.logSum).toBe(USER_QUOTA);
    expect(after.tokenRemain).toBe(TOKEN_REMAIN - USER_QUOTA);
    expect(after.openCount).toBe(0);

    // A top-up, announced as the console's write would be.
    await b.s.app.ctx.db.updateTable('users').set({ quota: 1_000_000 }).where('id', '=', b.user.id).execute();
    changeEvents(b.s.app.ctx).emit('users', [b.user.id]);
    fake.script({ text: 'cheap again', usage: { prompt: 1, completion: 0 } });
    const res = await b.openai().chat.completions.create({ model: 'clamp-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.choices[0]!.message.content).toBe('cheap again');
  });
});
