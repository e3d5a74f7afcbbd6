/**
 * The audit log screen (resources/audit.ts) and the usage log's CSV export: root changes a
 * setting and a channel, finds both in the audit log with its filters, then downloads the
 * usage log as CSV with the progress shown.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { callApi, deleteChannelsNamed, setOptions, signInRoot } from './gateway-helpers';
import { shot, toast } from './helpers';

test.describe.configure({ mode: 'serial' });

// Later specs share the server: the top-up link and the channel made here go again.
test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInRoot(page);
  await setOptions(page, { TopUpLink: '' });
  await deleteChannelsNamed(page, 'audit-e2e');
  await page.close();
});

test('administrative changes appear in the audit log, filtered by actor and kind', async ({ page }) => {
  await signInRoot(page);
  expect((await callApi(page, 'put', '/api/option/', { key: 'TopUpLink', value: 'https://pay.example.com/e2e' })).success).toBe(true);
  const made = await callApi<{ ids: number[] }>(page, 'post', '/api/channel/', { name: 'audit-e2e', type: 1, key: 'sk-e2e-secret', models: 'gpt-4o', groups: ['default'] });
  expect(made.success, made.message).toBe(true);

  await page.goto('/token');
  await page.getByTestId('side-nav').getByText('审计日志').click();
  await expect(page).toHaveURL(/\/audit$/);
  const rows = page.locator('.ant-table-row');
  await expect(rows.filter({ hasText: 'TopUpLink' })).toBeVisible();
  await expect(rows.filter({ hasText: 'TopUpLink' })).toContainText('设置');
  const channelRow = rows.filter({ hasText: '渠道' }).filter({ hasText: String(made.data.ids[0]) });
  await expect(channelRow).toBeVisible();
  await shot(page, 'audit-list-zh');

  // The changes open as text; the channel's key is masked.
  await channelRow.getByTestId('dialog-changes').click();
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toContainText('audit-e2e');
  await expect(dialog).toContainText('******');
  await expect(dialog).not.toContainText('sk-e2e-secret');
  await dialog.getByRole('button').click();

  const search = page.getByTestId('search-form');
  await search.locator('.ant-select').first().click();
  await page.locator('.ant-select-item-option').filter({ hasText: '渠道' }).click();
  await search.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rows.filter({ hasText: 'TopUpLink' })).toHaveCount(0);
  await expect(channelRow).toBeVisible();

  await search.getByPlaceholder('用户名称').fill('nobody-at-all');
  await search.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rows).toHaveCount(0);
});

test('the usage log downloads as CSV with progress', async ({ page }) => {
  await signInRoot(page);
  await page.goto('/log');
  const button = page.getByTestId('download-button');
  await expect(button).toHaveText(/导出 CSV/);
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^logs-\d{8}T\d{6}\.csv$/);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFFID,时间,渠道,渠道名称,用户,令牌,分组,类型,模型')).toBe(true);
  await expect(toast(page, /导出完成 \(\d+(\.\d)? (B|KB|MB)\)/)).toBeVisible();
});
