/**
 * Redemption codes just generated are shown once, to copy or to download as a text file named
 * after the batch, one code a line; then the list names them with the texts the declaration
 * carries inline (resources/redemptions.ts), and each is deleted through its row action. In
 * both languages.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { rowWith, signInRoot } from './gateway-helpers';
import { shot } from './helpers';

const LANGS = [
  {
    lang: 'zh',
    name: '名称',
    quota: '额度',
    count: '生成数量',
    download: '下载 .txt 文件',
    title: '兑换码管理',
    code: '兑换码',
    unused: '未使用',
    more: '更多操作',
    del: '删除',
    confirm: '确定是否要删除此兑换码？',
  },
  {
    lang: 'en',
    name: 'Name',
    quota: 'Quota',
    count: 'How many',
    download: 'Download .txt',
    title: 'Redemption codes',
    code: 'Code',
    unused: 'Unused',
    more: 'More actions',
    del: 'Delete',
    confirm: 'Delete this code?',
  },
] as const;

const drawer = (page: Page) => page.getByTestId('resource-drawer');

for (const l of LANGS) {
  test(`new redemption codes download as a .txt file named after the batch (${l.lang})`, async ({ page }) => {
    await signInRoot(page);
    await page.evaluate((lang) => localStorage.setItem('language', lang), l.lang);
    await page.goto('/redemption');
    await page.getByTestId('create-button').click();
    const batch = `e2e-txt-${l.lang}`;
    await drawer(page).getByLabel(l.name, { exact: true }).fill(batch);
    await drawer(page).getByLabel(l.quota).fill('1000');
    await drawer(page).getByLabel(l.count).fill('3');
    await drawer(page).getByTestId('drawer-submit').click();
    const list = page.getByTestId('created-list');
    await expect(list).toBeVisible();
    const shown = (await list.locator('textarea').inputValue()).split('\n');
    expect(shown).toHaveLength(3);

    const [download] = await Promise.all([page.waitForEvent('download'), list.getByRole('button', { name: l.download }).click()]);
    expect(download.suggestedFilename()).toBe(`${batch}.txt`);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.trimEnd().split('\n')).toEqual(shown);

    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(page.getByText(l.title, { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('columnheader', { name: l.code, exact: true })).toBeVisible();
    const rows = rowWith(page, batch);
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText(l.unused);
    await shot(page, `redemptions-${l.lang}`);
    // The shared server keeps what a spec leaves: the codes go, through the row's menu.
    for (let left = 3; left > 0; left--) {
      await rows.first().getByRole('button', { name: l.more }).click();
      await page.getByRole('menuitem', { name: l.del }).click();
      const confirm = page.locator('.ant-modal-confirm').filter({ hasText: l.confirm });
      await confirm.getByRole('button', { name: l.lang === 'zh' ? /确\s*定/ : 'OK' }).click();
      await expect(confirm).toBeHidden();
      await expect(rows).toHaveCount(left - 1);
    }
  });
}
