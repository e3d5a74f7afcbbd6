/**
 * Redemption codes, the wallet and the usage log: root generates two codes (shown to copy),
 * the user redeems one and the balance grows, a used code is refused; the top-up link and
 * disabled online payment give their messages (docs/messages.md); with a fake epay provider the user
 * pays online (payable amount, provider form, notification credits the balance); the
 * usage log shows the top-ups with filters and the statistics strip, and administrators
 * see usernames with their details.
 */
import { expect, test, type Page } from '@playwright/test';
import { startFakeEpay, type FakeEpay } from '../fakes/epay';
import { ensureUser, rowWith, setOptions, shotVariants, signIn, signInRoot, USER } from './gateway-helpers';
import { settle, shot, toast } from './helpers';

test.describe.configure({ mode: 'serial' });

let epay: FakeEpay;
let codes: string[] = [];

test.beforeAll(async () => {
  epay = await startFakeEpay();
});

test.afterAll(async () => {
  await epay?.close();
});

const drawer = (page: Page) => page.getByTestId('resource-drawer');
const balance = async (page: Page) => Number((await page.getByTestId('wallet-balance').locator('.ant-statistic-content').innerText()).replace(/[$,]/g, ''));

test('root generates redemption codes and sees them once to copy', async ({ page }) => {
  await signInRoot(page);
  await ensureUser(page);
  await page.goto('/redemption');
  await page.getByTestId('create-button').click();
  await drawer(page).getByLabel('名称').fill('e2e-codes');
  await drawer(page).getByLabel('额度').fill('1000000');
  await drawer(page).getByLabel('生成数量').fill('2');
  await drawer(page).getByTestId('drawer-submit').click();
  await expect(toast(page, '兑换码创建成功！')).toBeVisible();
  const list = page.getByTestId('created-list');
  await expect(list).toBeVisible();
  codes = (await list.locator('textarea').inputValue()).split('\n');
  expect(codes).toHaveLength(2);
  for (const code of codes) expect(code).toMatch(/^[0-9a-f]{32}$/);
  await settle(page);
  await shot(page, 'redemptions-created');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  await expect(rowWith(page, 'e2e-codes')).toHaveCount(2);

  await page.getByTestId('batch-copy').click();
  await expect(toast(page, '请至少选择一个兑换码！')).toBeVisible();
  const second = rowWith(page, 'e2e-codes').nth(1);
  await second.getByTestId('row-action-disable').click();
  await expect(second).toContainText('已禁用');
  await second.getByTestId('row-action-enable').click();
  await expect(second).toContainText('未使用');
});

test('the user redeems a code and the balance grows; a used code is refused', async ({ page }) => {
  await signIn(page, USER);
  await page.goto('/topup');
  await expect(page.getByTestId('wallet-balance')).toContainText('$');
  const before = await balance(page);
  await page.getByTestId('redeem-submit').click();
  await expect(toast(page, '请输入兑换码！')).toBeVisible();
  await page.getByTestId('redeem-code').fill(codes[0]);
  await page.getByTestId('redeem-submit').click();
  await expect(toast(page, '兑换成功！')).toBeVisible();
  await expect(page.locator('.ant-modal-confirm')).toContainText('成功兑换额度：$2.00');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  await expect.poll(() => balance(page)).toBeCloseTo(before + 2, 2);

  await page.getByTestId('redeem-code').fill(codes[0]);
  await page.getByTestId('redeem-submit').click();
  await expect(toast(page, '兑换失败，该兑换码已被使用')).toBeVisible();
  await page.getByTestId('topup-link').click();
  await expect(toast(page, '超级管理员未设置充值链接！')).toBeVisible();
  await page.getByTestId('pay-zfb').click();
  await expect(toast(page, '管理员未开启在线充值！')).toBeVisible();
});

test('online top-up: payable amount, provider form, credited after the notification', async ({ page, baseURL }) => {
  await signInRoot(page);
  await setOptions(page, { ServerAddress: baseURL!, PayAddress: epay.url, EpayId: epay.pid, EpayKey: epay.key });
  try {
    await signIn(page, USER);
    await page.goto('/topup');
    await expect(page.getByTestId('wallet-balance')).toContainText('$');
    const before = await balance(page);
    await page.getByTestId('topup-amount').fill('3');
    await expect(page.getByTestId('topup-payable')).toContainText('21.90');
    await page.getByTestId('topup-amount').fill('0');
    await page.getByTestId('pay-wx').click();
    await expect(toast(page, '充值数量不能小于 1')).toBeVisible();
    await page.getByTestId('topup-amount').fill('3');
    await expect(page.getByTestId('topup-payable')).toContainText('21.90');
    await settle(page);
    await shot(page, 'wallet-online-topup');
    await page.getByTestId('pay-zfb').click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
    await expect(page).toHaveURL(new RegExp(`^${epay.url}/submit\\.php`));
    expect(epay.orders).toHaveLength(1);
    expect(epay.orders[0]).toMatchObject({ type: 'alipay', money: '21.90' });
    expect((await epay.notify(epay.orders[0])).text).toBe('success');
    await page.goto('/topup');
    await expect.poll(() => balance(page)).toBeCloseTo(before + 3, 2);
  } finally {
    await signInRoot(page);
    await setOptions(page, { PayAddress: '', EpayId: '', EpayKey: '', ServerAddress: '' });
  }
});

test('the usage log shows the top-ups with filters and the statistics strip', async ({ page }) => {
  await signIn(page, USER);
  await page.goto('/log');
  await expect(page.getByTestId('stat-strip')).toContainText('消耗额度');
  await expect(page.getByTestId('stat-strip')).toContainText('RPM');
  await expect(rowWith(page, '通过兑换码充值')).toHaveCount(1);
  await expect(rowWith(page, '使用在线充值成功')).toHaveCount(1);
  await expect(page.getByRole('columnheader', { name: '用户' })).toHaveCount(0);
  const search = page.getByTestId('search-form');
  await search.locator('.ant-select').first().click();
  await page.locator('.ant-select-dropdown:visible').getByText('消费', { exact: true }).click();
  await search.getByRole('button', { name: '查询' }).click();
  await expect(rowWith(page, '通过兑换码充值')).toHaveCount(0);
  await search.locator('.ant-select').first().click();
  await page.locator('.ant-select-dropdown:visible').getByText('充值', { exact: true }).click();
  await search.getByRole('button', { name: '查询' }).click();
  await expect(rowWith(page, '通过兑换码充值')).toHaveCount(1);
  await shotVariants(page, 'logs-user', '/log', (p) => rowWith(p, '通过兑换码充值'));
});

test('administrators see every user, filter by username and open user details', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/log');
  await page.getByTestId('search-form').getByPlaceholder('用户名称').fill(USER.username);
  await page.getByTestId('search-form').getByRole('button', { name: '查询' }).click();
  const row = rowWith(page, '通过兑换码充值');
  await expect(row).toHaveCount(1);
  await row.getByText(USER.username, { exact: true }).click();
  await expect(page.getByTestId('user-info')).toContainText(USER.username);
  await settle(page);
  await shot(page, 'logs-admin-user-info');
  await shotVariants(page, 'logs-admin', '/log', (p) => p.getByRole('columnheader', { name: /用户|User/ }));
  await shotVariants(page, 'redemptions-list', '/redemption', (p) => rowWith(p, 'e2e-codes'));
  await shotVariants(page, 'wallet', '/topup', (p) => p.getByTestId('redeem-card'));
  await shotVariants(page, 'redemptions-edit', '/redemption/add', (p) => p.getByTestId('resource-drawer'));
});
