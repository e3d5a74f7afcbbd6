/**
 * Redemption codes just generated are shown once, to copy or to download as a text file named
 * after the batch, one code a line. In both languages.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signInRoot } from './gateway-helpers';

const LANGS = [
  { lang: 'zh', name: '名称', quota: '额度', count: '生成数量', download: '下载 .txt 文件' },
  { lang: 'en', name: 'Name', quota: 'Quota', count: 'How many', download: 'Download .txt' },
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
  });
}
