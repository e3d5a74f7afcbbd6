/**
 * A batch action with nothing selected says so at once, without asking for a confirmation
 * first; with rows selected it asks before it acts. In both languages.
 */
import { expect, test, type Page } from '@playwright/test';
import { createChannel, deleteChannelsNamed, rowWith, signInRoot } from './gateway-helpers';
import { toast } from './helpers';

const LANGS = [
  { lang: 'zh', empty: '请先选择要删除的通道！', confirm: '确定是否要删除所选通道？', cancel: '取消' },
  { lang: 'en', empty: 'Please select the channels to delete first!', confirm: 'Delete the selected channels?', cancel: 'Cancel' },
] as const;

async function useLanguage(page: Page, lang: string): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('language', l), lang);
}

for (const l of LANGS) {
  test(`batch delete with nothing selected says so without a confirmation (${l.lang})`, async ({ page }) => {
    await signInRoot(page);
    await createChannel(page, `e2e-batch-${l.lang}`, 'https://api.example.com', ['gpt-4o-mini']);
    await useLanguage(page, l.lang);
    await page.goto('/channel');
    await expect(rowWith(page, `e2e-batch-${l.lang}`)).toBeVisible();
    await page.getByTestId('batch-delete').click();
    await expect(toast(page, l.empty)).toBeVisible();
    await expect(page.locator('.ant-popconfirm')).toHaveCount(0);

    await rowWith(page, `e2e-batch-${l.lang}`).locator('.ant-checkbox-input').check();
    await page.getByTestId('batch-delete').click();
    const ask = page.locator('.ant-popconfirm');
    await expect(ask).toContainText(l.confirm);
    await ask.getByRole('button', { name: l.cancel }).click();
    await expect(rowWith(page, `e2e-batch-${l.lang}`)).toBeVisible();
    await deleteChannelsNamed(page, `e2e-batch-${l.lang}`);
  });
}
