/**
 * Redemption codes (docs/wallet.md#redemption-codes):
 * administrators generate codes in batches (the generated codes are shown to copy), search,
 * disable and enable unused ones, edit unused ones, copy selected codes. Its texts are
 * written here in both languages; only shared words (`crud.actions.edit`) are locale keys.
 */
import redemptionSchema from '../schemas/entities/redemption.json';
import { defineResource } from '../src/shared/resources/definition';
import { REDEMPTION_STATUS } from '../src/shared/redemption-status';
import { numberConstraintsOf, textConstraintsOf } from '../src/shared/resources/schema-constraints';

const textRules = (field: string) => textConstraintsOf(redemptionSchema, field);
const numberRules = (field: string) => numberConstraintsOf(redemptionSchema, field);
const UNUSED = { field: 'status', in: [REDEMPTION_STATUS.unused] };
/** Texts both a column and a form field show. */
const NAME = { zh: '名称', en: 'Name' };
const QUOTA = { zh: '额度', en: 'Quota' };

export const redemptionsResource = defineResource({
  name: 'redemptions',
  labelKey: { zh: '兑换码管理', en: 'Redemption codes' },
  icon: 'gift',
  api: '/api/redemption/',
  routes: { list: '/redemption', create: '/redemption/add', edit: '/redemption/edit/:id' },
  minRole: 10,
  search: { path: 'search', fields: [{ field: 'keyword', kind: 'text', placeholderKey: { zh: '搜索兑换码的 ID 和名称', en: 'Search code ID or name' }, width: 300 }] },
  columns: [
    { field: 'id', titleKey: { zh: 'ID', en: 'ID' }, width: 70, hideable: false },
    { field: 'name', titleKey: NAME, hideable: false },
    {
      field: 'status',
      titleKey: { zh: '状态', en: 'Status' },
      renderer: 'status',
      values: {
        [REDEMPTION_STATUS.unused]: { labelKey: { zh: '未使用', en: 'Unused' }, color: 'green' },
        [REDEMPTION_STATUS.disabled]: { labelKey: { zh: '已禁用', en: 'Disabled' }, color: 'red' },
        [REDEMPTION_STATUS.used]: { labelKey: { zh: '已使用', en: 'Used' }, color: 'default' },
      },
      unknown: { labelKey: { zh: '未知状态', en: 'Unknown' }, color: 'default' },
    },
    { field: 'quota', titleKey: QUOTA, renderer: 'quota' },
    { field: 'key', titleKey: { zh: '兑换码', en: 'Code' }, renderer: 'secret' },
    { field: 'created_time', titleKey: { zh: '创建时间', en: 'Created' }, renderer: 'timestamp' },
    { field: 'redeemed_time', titleKey: { zh: '兑换时间', en: 'Redeemed' }, renderer: 'timestamp', defaultHidden: true },
    { field: 'used_user_id', titleKey: { zh: '兑换人 ID', en: 'Redeemed by' }, renderer: 'id-tag' },
  ],
  rowActions: [
    { key: 'copy', kind: 'copy', labelKey: { zh: '复制', en: 'Copy' }, template: '{key}' },
    { key: 'disable', kind: 'status', status: REDEMPTION_STATUS.disabled, labelKey: { zh: '禁用', en: 'Disable' }, visibleWhen: UNUSED },
    {
      key: 'enable',
      kind: 'status',
      status: REDEMPTION_STATUS.unused,
      labelKey: { zh: '启用', en: 'Enable' },
      visibleWhen: { field: 'status', notIn: [REDEMPTION_STATUS.unused] },
      disabledWhen: { field: 'status', in: [REDEMPTION_STATUS.used] },
    },
    { key: 'edit', kind: 'edit', labelKey: 'crud.actions.edit', disabledWhen: { field: 'status', notIn: [REDEMPTION_STATUS.unused] } },
    {
      key: 'delete',
      kind: 'delete',
      labelKey: { zh: '删除', en: 'Delete' },
      danger: true,
      confirm: { titleKey: { zh: '确定是否要删除此兑换码？', en: 'Delete this code?' }, contentKey: { zh: '此修改将不可逆', en: 'This cannot be undone' } },
      inMenu: true,
    },
  ],
  batchActions: [
    {
      key: 'copy',
      kind: 'copy',
      labelKey: { zh: '复制所选兑换码', en: 'Copy selected codes' },
      field: 'key',
      emptySelectionKey: { zh: '请至少选择一个兑换码！', en: 'Please select at least one code!' },
    },
  ],
  form: {
    width: 520,
    fields: [
      { field: 'name', kind: 'text', labelKey: NAME, placeholderKey: { zh: '留空则使用格式化后的额度作为名称', en: 'Empty: the formatted quota' }, minLength: 1, ...textRules('name'), default: '' },
      { field: 'quota', kind: 'quota', labelKey: QUOTA, required: true, ...numberRules('quota') },
      {
        field: 'count',
        kind: 'number',
        labelKey: { zh: '生成数量', en: 'How many' },
        helpKey: { zh: '一次生成的兑换码个数（1 到 100）', en: 'How many codes to generate (1 to 100)' },
        modes: ['create'],
        required: true,
        ...numberRules('count'),
      },
    ],
  },
  createdListTitleKey: { zh: '兑换码已生成', en: 'Codes generated' },
  messages: { created: { zh: '兑换码创建成功！', en: 'Codes created!' }, updated: { zh: '兑换码更新成功！', en: 'Code updated!' } },
  createLabelKey: { zh: '添加兑换码', en: 'Add codes' },
});
