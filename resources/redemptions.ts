/**
 * Redemption codes (docs/wallet.md#redemption-codes):
 * administrators generate codes in batches (the generated codes are shown to copy), search,
 * disable and enable unused ones, edit unused ones, copy selected codes.
 */
import redemptionSchema from '../schemas/entities/redemption.json';
import { defineResource } from '../src/shared/resources/definition';
import { constraintsOf } from '../src/shared/resources/schema-constraints';

const schema = (field: string) => constraintsOf(redemptionSchema, field);
const UNUSED = { field: 'status', in: [1] };

export const redemptionsResource = defineResource({
  name: 'redemptions',
  labelKey: 'redemptions.title',
  icon: 'gift',
  api: '/api/redemption/',
  routes: { list: '/redemption', create: '/redemption/add', edit: '/redemption/edit/:id' },
  minRole: 10,
  search: { path: 'search', fields: [{ field: 'keyword', kind: 'text', placeholderKey: 'redemptions.search.keyword', width: 300 }] },
  columns: [
    { field: 'id', titleKey: 'redemptions.fields.id', width: 70, hideable: false },
    { field: 'name', titleKey: 'redemptions.fields.name', hideable: false },
    {
      field: 'status',
      titleKey: 'redemptions.fields.status',
      renderer: 'status',
      values: {
        1: { labelKey: 'redemptions.status.unused', color: 'green' },
        2: { labelKey: 'redemptions.status.disabled', color: 'red' },
        3: { labelKey: 'redemptions.status.used', color: 'default' },
      },
      unknown: { labelKey: 'redemptions.status.unknown', color: 'default' },
    },
    { field: 'quota', titleKey: 'redemptions.fields.quota', renderer: 'quota' },
    { field: 'key', titleKey: 'redemptions.fields.key', renderer: 'secret' },
    { field: 'created_time', titleKey: 'redemptions.fields.created_time', renderer: 'timestamp' },
    { field: 'redeemed_time', titleKey: 'redemptions.fields.redeemed_time', renderer: 'timestamp', defaultHidden: true },
    { field: 'used_user_id', titleKey: 'redemptions.fields.used_user_id', renderer: 'id-tag' },
  ],
  rowActions: [
    { key: 'copy', kind: 'copy', labelKey: 'redemptions.actions.copy', template: '{key}' },
    { key: 'disable', kind: 'status', status: 2, labelKey: 'redemptions.actions.disable', visibleWhen: UNUSED },
    { key: 'enable', kind: 'status', status: 1, labelKey: 'redemptions.actions.enable', visibleWhen: { field: 'status', notIn: [1] }, disabledWhen: { field: 'status', in: [3] } },
    { key: 'edit', kind: 'edit', labelKey: 'crud.actions.edit', disabledWhen: { field: 'status', notIn: [1] } },
    {
      key: 'delete',
      kind: 'delete',
      labelKey: 'redemptions.actions.delete',
      danger: true,
      confirm: { titleKey: 'redemptions.confirm.deleteTitle', contentKey: 'redemptions.confirm.deleteContent' },
      inMenu: true,
    },
  ],
  batchActions: [{ key: 'copy', kind: 'copy', labelKey: 'redemptions.actions.copySelected', field: 'key', emptySelectionKey: 'redemptions.messages.noSelection' }],
  form: {
    width: 520,
    fields: [
      { field: 'name', kind: 'text', labelKey: 'redemptions.fields.name', placeholderKey: 'redemptions.form.namePlaceholder', minLength: 1, ...schema('name'), default: '' },
      { field: 'quota', kind: 'quota', labelKey: 'redemptions.fields.quota', required: true, ...schema('quota') },
      { field: 'count', kind: 'number', labelKey: 'redemptions.fields.count', helpKey: 'redemptions.form.countHelp', modes: ['create'], required: true, ...schema('count') },
    ],
  },
  createdListTitleKey: 'redemptions.createdTitle',
  messages: { created: 'redemptions.messages.created', updated: 'redemptions.messages.updated' },
  createLabelKey: 'redemptions.actions.add',
});
