/**
 * The shell follows the public status: custom footer, home and about content, the docs
 * link, the Self-use and Demo badges (Register hidden in self-use mode), the collapsible
 * sidebar kept locally, and the 1 January easter egg.
 */
import { expect, test, type Page } from '@playwright/test';
import { login, ROOT, shot } from './helpers';

test.describe.configure({ mode: 'serial' });

const CHANGED = {
  Footer: '<span id="custom-footer">Operated by the e2e team</span>',
  HomePageContent: '# Welcome aboard\n\nThis gateway is **ready**.',
  About: '',
  'general_setting.docs_link': 'https://docs.example.com',
  SelfUseModeEnabled: 'true',
  DemoSiteEnabled: 'true',
};
const DEFAULTS: Record<keyof typeof CHANGED, string> = {
  Footer: '',
  HomePageContent: '',
  About: '',
  'general_setting.docs_link': '',
  SelfUseModeEnabled: 'false',
  DemoSiteEnabled: 'false',
};

async function setOptions(page: Page, values: Record<string, string>) {
  for (const [key, value] of Object.entries(values)) {
    const reply = await page.request.put('/api/option/', { data: { key, value }, headers: { 'New-Api-User': '1' } });
    expect(await reply.json(), key).toMatchObject({ success: true });
  }
}

async function signInRoot(page: Page) {
  await login(page, ROOT.username, ROOT.password);
  await page.getByRole('button', { name: '确定' }).click();
}

test('the shell shows the configured footer, content, docs link and mode badges', async ({ page, baseURL }) => {
  await signInRoot(page);
  await setOptions(page, { ...CHANGED, About: `${baseURL}/api/about` });
  try {
    await checkConfiguredShell(page, baseURL!);
  } finally {
    await setOptions(page, DEFAULTS);
  }
});

async function checkConfiguredShell(page: Page, baseURL: string) {
  await page.goto('/');
  await expect(page.locator('#custom-footer')).toHaveText('Operated by the e2e team');
  await expect(page.getByRole('heading', { name: 'Welcome aboard' })).toBeVisible();
  await expect(page.locator('.sy-markdown strong')).toHaveText('ready');
  await expect(page.getByTestId('top-nav').getByText('文档')).toBeVisible();
  await expect(page.locator('.ant-tag').filter({ hasText: '自用模式' })).toBeVisible();
  await expect(page.locator('.ant-tag').filter({ hasText: '演示站点' })).toBeVisible();
  await shot(page, 'home-custom-content');
  await page.goto('/about');
  await expect(page.locator('iframe.sy-content-frame')).toHaveAttribute('src', `${baseURL}/api/about`);

  // A guest (own browser context): no Register in self-use mode.
  const guest = await page.context().browser()!.newPage();
  await guest.goto(`${baseURL}/login`);
  await expect(guest.getByTestId('login-submit')).toBeVisible();
  await expect(guest.locator('.ant-tag').filter({ hasText: '自用模式' })).toBeVisible();
  await expect(guest.getByRole('button', { name: '注册', exact: true })).toHaveCount(0);
  await expect(guest.getByText('点击注册')).toHaveCount(0);
  await guest.close();
}

test('the sidebar collapses to 60 px and stays collapsed', async ({ page }) => {
  await signInRoot(page);
  const sider = page.locator('.sy-sider');
  await expect(sider).toHaveCSS('width', '200px');
  await page.getByTestId('sider-toggle').click();
  await expect(sider).toHaveCSS('width', '60px');
  await page.reload();
  await expect(sider).toHaveCSS('width', '60px');
  expect(await page.evaluate(() => localStorage.getItem('sidebar-collapsed'))).toBe('true');
  await shot(page, 'sider-collapsed');
  await page.getByTestId('sider-toggle').click();
  await expect(sider).toHaveCSS('width', '200px');
});

test('on 1 January the easter egg appears', async ({ page }) => {
  await page.clock.setFixedTime(new Date(2027, 0, 1, 10, 0, 0));
  await page.goto('/');
  await expect(page.getByRole('button', { name: '新年快乐！' })).toBeVisible();
  await page.clock.setFixedTime(new Date(2027, 0, 2, 10, 0, 0));
  await page.reload();
  await expect(page.getByTestId('theme-toggle')).toBeVisible();
  await expect(page.getByRole('button', { name: '新年快乐！' })).toHaveCount(0);
});
