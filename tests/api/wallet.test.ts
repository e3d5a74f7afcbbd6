import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epaySign } from '../../src/server/services/wallet/epay.signature';
import { toFraction, toMoneyText } from '../../src/server/services/wallet/exact-decimal';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';
import { signEpay, startFakeEpay, type FakeEpay, type Params } from '../fakes/epay';

describe('epay signature and money arithmetic', () => {
  it('signs like the reference worked example and like the provider', () => {
    const params = {
      pid: '1001',
      type: 'alipay',
      out_trade_no: 'USR7NOab12CD1712345678',
      notify_url: 'https://x.com/api/user/epay/notify',
      return_url: 'https://x.com/log',
      name: 'TUC10',
      money: '73.00',
      device: 'pc',
      sign_type: 'MD5',
      empty: '',
    };
    const expected = signEpay(params, 'merchant-key');
    expect(epaySign(params, 'merchant-key')).toBe(expected);
    expect(epaySign({ ...params, sign: 'ignored' }, 'merchant-key')).toBe(expected);
  });

  it('keeps prices exact and rounds half up to cents', () => {
    expect(toMoneyText({ n: 73n, d: 1n })).toBe('73.00');
    expect(toMoneyText(toFraction(0.125)!)).toBe('0.13');
    expect(toMoneyText(toFraction(1.005)!)).toBe('1.01');
    expect(toMoneyText(toFraction('1e-7')!)).toBe('0.00');
    expect(toFraction('abc')).toBeUndefined();
  });
});

describeEachDialect('wallet', (dialect) => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let epay: FakeEpay;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    epay = await startFakeEpay();
    alice = await createUser(s, 'walletalice');
    bob = await createUser(s, 'walletbob');
  });
  afterAll(async () => {
    await epay?.close();
    await s?.close();
  });

  const quotaOf = async (id: number) => Number((await s.app.ctx.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);
  const topUpLogs = (id: number) => s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', id).where('type', '=', 1).orderBy('id').execute();
  const newCode = async (quota: number) => {
    const root = await s.root();
    const reply = await root.post('/api/redemption/', { name: 'wallet', quota, count: 1 });
    expect(reply.body.success).toBe(true);
    const key: string = reply.body.data[0];
    const row = await s.app.ctx.db.selectFrom('redemptions').select('id').where('key', '=', key).executeTakeFirstOrThrow();
    return { key, id: row.id };
  };
  const configurePayment = async () => {
    const o = s.app.ctx.options;
    await o.setInternal('ServerAddress', s.url);
    await o.setInternal('PayAddress', epay.url);
    await o.setInternal('EpayId', epay.pid);
    await o.setInternal('EpayKey', epay.key);
  };

  describe('redeeming a code', () => {
    it('refuses an empty or unknown code', async () => {
      expect((await alice.client.post('/api/user/topup', { key: '  ' })).body).toEqual({ success: false, message: '请输入兑换码！' });
      expect((await alice.client.post('/api/user/topup', {})).body).toEqual({ success: false, message: '请输入兑换码！' });
      expect((await alice.client.post('/api/user/topup', { key: 'f'.repeat(32) })).body).toEqual({ success: false, message: '兑换失败，无效的兑换码' });
      expect((await s.client().post('/api/user/topup', { key: 'x' })).status).toBe(401);
    });

    it('credits the quota once, marks the code used and writes the top-up log', async () => {
      const code = await newCode(250000);
      const before = await quotaOf(alice.id);
      const res = await alice.client.post('/api/user/topup', { key: code.key });
      expect(res.body).toEqual({ success: true, message: '', data: 250000 });
      expect(await quotaOf(alice.id)).toBe(before + 250000);
      const row = await s.app.ctx.db.selectFrom('redemptions').selectAll().where('id', '=', code.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 3, used_user_id: alice.id });
      expect(Math.abs(Number(row.redeemed_time) - Date.now() / 1000)).toBeLessThan(10);
      const logs = await topUpLogs(alice.id);
      expect(logs.at(-1)).toMatchObject({ username: 'walletalice', content: `通过兑换码充值 ＄0.500000 额度，兑换码ID ${code.id}` });
      const again = await bob.client.post('/api/user/topup', { key: code.key });
      expect(again.body).toEqual({ success: false, message: '兑换失败，该兑换码已被使用' });
      expect(await quotaOf(alice.id)).toBe(before + 250000);
    });

    it('credits exactly once when two users redeem one code 20 times at the same moment', async () => {
      const code = await newCode(777777);
      const before = { alice: await quotaOf(alice.id), bob: await quotaOf(bob.id) };
      const logsBefore = (await topUpLogs(alice.id)).length + (await topUpLogs(bob.id)).length;
      const attempts = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? alice : bob).client.post('/api/user/topup', { key: code.key }));
      const replies = (await Promise.all(attempts)).map((r) => r.body);
      const wins = replies.filter((b) => b.success);
      expect(wins).toHaveLength(1);
      expect(wins[0].data).toBe(777777);
      for (const b of replies.filter((r) => !r.success)) expect(b.message).toBe('兑换失败，该兑换码已被使用');
      const gained = (await quotaOf(alice.id)) - before.alice + ((await quotaOf(bob.id)) - before.bob);
      expect(gained).toBe(777777);
      const logsAfter = (await topUpLogs(alice.id)).length + (await topUpLogs(bob.id)).length;
      expect(logsAfter - logsBefore).toBe(1);
    });
  });

  describe('online top-up', () => {
    it('quotes the payable amount from price, unit and group ratio', async () => {
      const res = await alice.client.post('/api/user/amount', { amount: 10, top_up_code: '' });
      expect(res.body).toEqual({ message: 'success', data: '73.00' });
      await s.app.ctx.db.updateTable('users').set({ group: 'vip' }).where('id', '=', alice.id).execute();
      await s.app.ctx.options.setInternal('TopupGroupRatio', JSON.stringify({ default: 1, vip: 1.5, svip: 0 }));
      try {
        expect((await alice.client.post('/api/user/amount', { amount: 3 })).body).toEqual({ message: 'success', data: '32.85' });
        await s.app.ctx.db.updateTable('users').set({ group: 'svip' }).where('id', '=', alice.id).execute();
        expect((await alice.client.post('/api/user/amount', { amount: 3 })).body).toEqual({ message: 'success', data: '21.90' });
      } finally {
        await s.app.ctx.db.updateTable('users').set({ group: 'default' }).where('id', '=', alice.id).execute();
        await s.app.ctx.options.setInternal('TopupGroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
      }
    });

    it('enforces the minimum and refuses malformed or too small amounts', async () => {
      await s.app.ctx.options.setInternal('MinTopUp', '5');
      try {
        expect((await alice.client.post('/api/user/amount', { amount: 4 })).body).toEqual({ message: 'error', data: '充值数量不能小于 5' });
        expect((await alice.client.post('/api/user/pay', { amount: 4, payment_method: 'zfb' })).body).toEqual({ message: 'error', data: '充值数量不能小于 5' });
      } finally {
        await s.app.ctx.options.setInternal('MinTopUp', '1');
      }
      for (const amount of ['10', 1.5, null]) {
        expect((await alice.client.post('/api/user/amount', { amount })).body).toEqual({ message: 'error', data: '参数错误' });
      }
      // No body at all (a bodiless POST, or JSON null) is a malformed amount too, never a 500.
      for (const path of ['/api/user/amount', '/api/user/pay']) {
        const bodiless = await alice.client.request('POST', path);
        expect(bodiless.status).toBe(200);
        expect(bodiless.body).toEqual({ message: 'error', data: '参数错误' });
        expect((await alice.client.post(path, 'null')).body).toEqual({ message: 'error', data: '参数错误' });
      }
      await s.app.ctx.options.setInternal('Price', '0.01');
      try {
        expect((await alice.client.post('/api/user/amount', { amount: 1 })).body).toEqual({ message: 'error', data: '充值金额过低' });
        expect((await alice.client.post('/api/user/amount', { amount: 2 })).body).toEqual({ message: 'success', data: '0.02' });
      } finally {
        await s.app.ctx.options.setInternal('Price', '7.3');
      }
    });

    it('counts the amount in quota units when quota is not shown as currency', async () => {
      await s.app.ctx.options.setInternal('DisplayInCurrencyEnabled', 'false');
      try {
        expect((await alice.client.post('/api/user/amount', { amount: 499999 })).body).toEqual({ message: 'error', data: '充值数量不能小于 500000' });
        expect((await alice.client.post('/api/user/amount', { amount: 1000000 })).body).toEqual({ message: 'success', data: '14.60' });
      } finally {
        await s.app.ctx.options.setInternal('DisplayInCurrencyEnabled', 'true');
      }
    });

    it('refuses to start a payment while payment is not configured', async () => {
      const res = await alice.client.post('/api/user/pay', { amount: 10, payment_method: 'zfb', top_up_code: '' });
      expect(res.body).toEqual({ message: 'error', data: '当前管理员未配置支付信息' });
    });

    it('creates a pending order with a correctly signed form the provider accepts', async () => {
      await configurePayment();
      const res = await alice.client.post('/api/user/pay', { amount: 10, payment_method: 'zfb', top_up_code: '' });
      expect(res.body.message).toBe('success');
      const form: Params = res.body.data;
      expect(res.body.url).toBe(`${epay.url}/submit.php`);
      expect(form).toMatchObject({
        pid: epay.pid,
        type: 'alipay',
        notify_url: `${s.url}/api/user/epay/notify`,
        return_url: `${s.url}/log`,
        name: 'TUC10',
        money: '73.00',
        device: 'pc',
        sign_type: 'MD5',
      });
      expect(form.out_trade_no).toMatch(new RegExp(`^USR${alice.id}NO[0-9a-zA-Z]{6}\\d{10}$`));
      expect(form.sign).toBe(signEpay(form, epay.key));
      expect(JSON.stringify(res.body)).not.toContain(epay.key);
      const wx = await alice.client.post('/api/user/pay', { amount: 1, payment_method: 'wx' });
      expect(wx.body.data.type).toBe('wxpay');
      // The console posts the form to the provider, which checks the signature.
      const submitted = await fetch(res.body.url, { method: 'POST', body: new URLSearchParams(form) });
      expect(submitted.status).toBe(200);
      expect(epay.orders.at(-1)?.out_trade_no).toBe(form.out_trade_no);
      const order = await s.app.ctx.db.selectFrom('top_ups').selectAll().where('trade_no', '=', form.out_trade_no!).executeTakeFirstOrThrow();
      expect(order).toMatchObject({ user_id: alice.id, status: 'pending' });
      expect(Number(order.amount)).toBe(10);
      expect(Number(order.money)).toBe(73);
    });

    it('credits a paid order once on a signed notification; replays change nothing', async () => {
      await configurePayment();
      const pay = await bob.client.post('/api/user/pay', { amount: 2, payment_method: 'zfb' });
      const form: Params = pay.body.data;
      const before = await quotaOf(bob.id);
      const logsBefore = (await topUpLogs(bob.id)).length;
      expect(await epay.notify(form)).toEqual({ status: 200, text: 'success' });
      expect(await quotaOf(bob.id)).toBe(before + 1000000);
      const replays = await Promise.all(Array.from({ length: 5 }, () => epay.notify(form)));
      for (const r of replays) expect(r.text).toBe('success');
      expect(await quotaOf(bob.id)).toBe(before + 1000000);
      const logs = await topUpLogs(bob.id);
      expect(logs.length - logsBefore).toBe(1);
      expect(logs.at(-1)?.content).toBe('使用在线充值成功，充值金额: ＄2.000000 额度，支付金额：14.600000');
      const order = await s.app.ctx.db.selectFrom('top_ups').select('status').where('trade_no', '=', form.out_trade_no!).executeTakeFirstOrThrow();
      expect(order.status).toBe('success');
    });

    it('answers fail and changes nothing for a bad signature, wrong money, wrong merchant or unknown order', async () => {
      await configurePayment();
      const pay = await alice.client.post('/api/user/pay', { amount: 3, payment_method: 'wx' });
      const form: Params = pay.body.data;
      const before = await quotaOf(alice.id);
      const refusals = [
        await epay.notify(form, { signKey: 'not-the-merchant-key' }),
        await epay.notify(form, { sign: '0'.repeat(32) }),
        await epay.notify(form, { change: { money: '0.01' } }),
        await epay.notify(form, { change: { pid: '9999' } }),
        await epay.notify(form, { change: { out_trade_no: 'USR1NOnosuch1712345678' } }),
      ];
      for (const r of refusals) expect(r.text).toBe('fail');
      expect(await quotaOf(alice.id)).toBe(before);
      const pending = await epay.notify(form, { change: { trade_status: 'WAIT_BUYER_PAY' } });
      expect(pending.text).toBe('success');
      expect(await quotaOf(alice.id)).toBe(before);
      const order = await s.app.ctx.db.selectFrom('top_ups').select('status').where('trade_no', '=', form.out_trade_no!).executeTakeFirstOrThrow();
      expect(order.status).toBe('pending');
      // The same money written differently is the same money.
      expect((await epay.notify(form, { change: { money: '21.9' } })).text).toBe('success');
      expect(await quotaOf(alice.id)).toBe(before + 1500000);
    });

    it('answers fail to notifications while payment is not configured', async () => {
      await s.app.ctx.options.setInternal('EpayKey', '');
      try {
        const res = await fetch(`${s.url}/api/user/epay/notify?pid=${epay.pid}&out_trade_no=x&money=1&trade_status=TRADE_SUCCESS&sign=abc`);
        expect(await res.text()).toBe('fail');
      } finally {
        await s.app.ctx.options.setInternal('EpayKey', epay.key);
      }
    });
  });
});
