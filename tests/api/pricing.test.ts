/** The public price list: models of enabled abilities, per-call vs ratio billing, usable groups per caller. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { channelEvents } from '../../src/server/services/channels/channel.events';
import { invalidatePricing } from '../../src/server/services/pricing/pricing.service';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

describeEachDialect('pricing API', (dialect) => {
  let s: TestServer;
  let vipUser: TestUser;
  let svipUser: TestUser;

  const byModel = (data: { model_name: string }[]): Record<string, any> => Object.fromEntries(data.map((e) => [e.model_name, e]));

  beforeAll(async () => {
    s = await startTestServer(dialect);
    const { ctx } = s.app;
    vipUser = await createUser(s, 'carol');
    svipUser = await createUser(s, 'dave');
    await ctx.db.updateTable('users').set({ group: 'vip' }).where('id', '=', vipUser.id).execute();
    await ctx.db.updateTable('users').set({ group: 'svip' }).where('id', '=', svipUser.id).execute();
    await ctx.options.setInternal('GroupRatio', JSON.stringify({ default: 1, vip: 1.5, svip: 0.8 }));
    await ctx.options.setInternal('UserUsableGroups', JSON.stringify({ default: '默认分组' }));
    const abilities: [string, string, number, boolean][] = [
      ['gpt-4o', 'default', 1, true],
      ['gpt-4o', 'vip', 1, true],
      ['gpt-4o', 'svip', 2, true],
      ['gpt-4o', 'default', 2, true],
      ['claude-3-opus-20240229', 'vip', 1, true],
      ['suno_music', 'default', 3, true],
      ['switched-off-model', 'default', 1, false],
      ['my-private-model', 'default', 1, true],
    ];
    await ctx.db
      .insertInto('abilities')
      .values(abilities.map(([model, group, channel_id, enabled]) => ({ model, group, channel_id, enabled, tag: null })))
      .execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows a visitor the default view: default groups only, no empty group key', async () => {
    const res = await s.client().get('/api/pricing');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: '', group_ratio: { default: 1 }, usable_group: { default: '默认分组' } });
    expect(Object.keys(res.body.usable_group)).toEqual(['default']);
    const models = byModel(res.body.data);
    expect(Object.keys(models).sort()).toEqual(['gpt-4o', 'my-private-model', 'suno_music']);
    expect(models['gpt-4o']).toEqual({ model_name: 'gpt-4o', quota_type: 0, model_ratio: 1.25, model_price: 0, completion_ratio: 4, enable_groups: ['default'] });
  });

  it('prices per-call models with model_price and unknown models with the unset ratio', async () => {
    const models = byModel((await s.client().get('/api/pricing')).body.data);
    expect(models.suno_music).toMatchObject({ quota_type: 1, model_price: 0.1, enable_groups: ['default'] });
    expect(models['my-private-model']).toMatchObject({ quota_type: 0, model_ratio: 37.5, completion_ratio: 1 });
    expect(models['switched-off-model']).toBeUndefined();
  });

  it('shows a signed-in user the groups usable to their own group', async () => {
    const res = await vipUser.client.get('/api/pricing');
    expect(res.body.group_ratio).toEqual({ default: 1, vip: 1.5 });
    expect(res.body.usable_group).toEqual({ default: '默认分组', vip: '用户分组' });
    const models = byModel(res.body.data);
    expect(models['gpt-4o'].enable_groups.sort()).toEqual(['default', 'vip']);
    expect(models['claude-3-opus-20240229']).toEqual({
      model_name: 'claude-3-opus-20240229',
      quota_type: 0,
      model_ratio: 7.5,
      model_price: 0,
      completion_ratio: 5,
      enable_groups: ['vip'],
    });
    const svip = await svipUser.client.get('/api/pricing');
    expect(svip.body.group_ratio).toEqual({ default: 1, svip: 0.8 });
    expect(byModel(svip.body.data)['gpt-4o'].enable_groups.sort()).toEqual(['default', 'svip']);
    expect(byModel(svip.body.data)['claude-3-opus-20240229']).toBeUndefined();
  });

  it('treats a stale or forged session like a visitor', async () => {
    const forged = s.client();
    forged.cookie = 'session=not-a-signed-value';
    const res = await forged.get('/api/pricing');
    expect(res.body.success).toBe(true);
    expect(res.body.usable_group).toEqual({ default: '默认分组' });
  });

  it('recomputes at once when a price option changes', async () => {
    await s.app.ctx.options.setInternal('ModelRatio', JSON.stringify({ 'gpt-4o': 3 }));
    await s.app.ctx.options.setInternal('ModelPrice', JSON.stringify({ 'my-private-model': 0.02 }));
    const models = byModel((await s.client().get('/api/pricing')).body.data);
    expect(models['gpt-4o']).toMatchObject({ model_ratio: 3, quota_type: 0 });
    expect(models['my-private-model']).toMatchObject({ quota_type: 1, model_price: 0.02 });
    expect(models.suno_music).toMatchObject({ quota_type: 0, model_ratio: 37.5 });
  });

  it('keeps the model list for a while and refreshes it when invalidated', async () => {
    const { ctx } = s.app;
    await ctx.db.insertInto('abilities').values({ model: 'fresh-model', group: 'default', channel_id: 9, enabled: true, tag: null }).execute();
    expect(byModel((await s.client().get('/api/pricing')).body.data)['fresh-model']).toBeUndefined();
    invalidatePricing(ctx);
    expect(byModel((await s.client().get('/api/pricing')).body.data)['fresh-model']).toMatchObject({ enable_groups: ['default'] });
  });

  it('refreshes the model list when channels change', async () => {
    const { ctx } = s.app;
    await ctx.db.updateTable('abilities').set({ enabled: false }).where('model', '=', 'fresh-model').execute();
    expect(byModel((await s.client().get('/api/pricing')).body.data)['fresh-model']).toBeDefined();
    channelEvents(ctx).emit('update', [9]);
    expect(byModel((await s.client().get('/api/pricing')).body.data)['fresh-model']).toBeUndefined();
  });
});
