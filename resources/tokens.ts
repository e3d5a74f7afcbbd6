/**
 * API tokens (docs/tokens.md): every user manages their
 * own tokens, shown and copied with the `sk-` prefix; several can be created at once; the
 * chat-link action opens a saved chat with the token put in.
 */
import tokenSchema from '../schemas/entities/token.json';
import { defineResource } from '../src/shared/resources/definition';
import { constraintsOf } from '../src/shared/resources/schema-constraints';

const schema = (field: string) => constraintsOf(tokenSchema, field);
const QUOTA_PRESETS = [500000, 5000000, 25000000, 50000000, 250000000, 500000000].map((value) => ({ value }));
const EXPIRY_PRESETS = [
  { value: -1, labelKey: 'tokens.expiry.never' },
  { value: 3600, labelKey: 'tokens.expiry.hour' },
  { value: 86400, labelKey: 'tokens.expiry.day' },
  { value: 2592000, labelKey: 'tokens.expiry.month' },
];

export const tokensResource = defineResource({
  name: 'tokens',
  labelKey: 'tokens.title',
  icon: 'key',
  api: '/api/token/',
  routes: { list: '/token', create: '/token/add', edit: '/token/edit/:id' },
  minRole: 1,
  banner: { type: 'warning', textKey: 'tokens.banner' },
  search: {
    path: 'search',
    fields: [
      { field: 'keyword', kind: 'text', placeholderKey: 'tokens.search.keyword', width: 220 },
      { field: 'token', kind: 'text', placeholderKey: 'tokens.search.token', width: 260 },
    ],
  },
  columns: [
    { field: 'name', titleKey: 'tokens.fields.name', hideable: false },
    {
      field: 'status',
      titleKey: 'tokens.fields.status',
      renderer: 'status-detail',
      values: {
        1: { labelKey: 'tokens.status.enabled', color: 'green' },
        2: { labelKey: 'tokens.status.disabled', color: 'red' },
        3: { labelKey: 'tokens.status.expired', color: 'yellow' },
        4: { labelKey: 'tokens.status.exhausted', color: 'grey' },
      },
      unknown: { labelKey: 'tokens.status.unknown', color: 'default' },
      cases: [{ when: [{ field: 'status', in: [1] }, { field: 'model_limits_enabled', in: [true] }], value: { labelKey: 'tokens.status.limited', color: 'green' } }],
    },
    {
      field: 'remain_quota',
      titleKey: 'tokens.fields.quota',
      renderer: 'stat-tags',
      items: [
        { field: 'used_quota', labelKey: 'tokens.fields.used', format: 'quota', color: 'orange' },
        { field: 'remain_quota', labelKey: 'tokens.fields.remaining', format: 'quota', color: 'green', unlimitedField: 'unlimited_quota' },
      ],
    },
    {
      field: 'unlimited_quota',
      titleKey: 'tokens.fields.unlimited_quota',
      renderer: 'enum',
      values: { true: { labelKey: 'tokens.unlimited', color: 'blue' }, false: { labelKey: 'tokens.limited', color: 'default' } },
    },
    { field: 'key', titleKey: 'tokens.fields.key', renderer: 'secret', prefix: 'sk-', hideable: false },
    { field: 'group', titleKey: 'tokens.fields.group', renderer: 'group', defaultHidden: true },
    { field: 'created_time', titleKey: 'tokens.fields.created_time', renderer: 'timestamp' },
    { field: 'expired_time', titleKey: 'tokens.fields.expired_time', renderer: 'timestamp', neverValue: -1, neverKey: 'tokens.expiry.never' },
    { field: 'accessed_time', titleKey: 'tokens.fields.accessed_time', renderer: 'timestamp', defaultHidden: true },
  ],
  rowActions: [
    { key: 'copy', kind: 'copy', labelKey: 'tokens.actions.copy', template: 'sk-{key}' },
    { key: 'chat', kind: 'chat-link', labelKey: 'tokens.actions.chat' },
    { key: 'disable', kind: 'status', status: 2, labelKey: 'tokens.actions.disable', visibleWhen: { field: 'status', in: [1] } },
    { key: 'enable', kind: 'status', status: 1, labelKey: 'tokens.actions.enable', visibleWhen: { field: 'status', notIn: [1] } },
    { key: 'edit', kind: 'edit', labelKey: 'crud.actions.edit' },
    {
      key: 'delete',
      kind: 'delete',
      labelKey: 'tokens.actions.delete',
      danger: true,
      confirm: { titleKey: 'tokens.confirm.deleteTitle', contentKey: 'tokens.confirm.deleteContent' },
      inMenu: true,
    },
  ],
  batchActions: [
    { key: 'copy', kind: 'copy', labelKey: 'tokens.actions.copySelected', template: '{name}    sk-{key}', emptySelectionKey: 'tokens.messages.noSelection' },
  ],
  form: {
    width: 600,
    groups: [{ key: 'limits', titleKey: 'tokens.form.limits' }],
    fields: [
      { field: 'name', kind: 'text', labelKey: 'tokens.fields.name', placeholderKey: 'tokens.form.namePlaceholder', ...schema('name'), default: '' },
      {
        field: 'remain_quota',
        kind: 'quota',
        labelKey: 'tokens.fields.remain_quota',
        presets: QUOTA_PRESETS,
        required: true,
        visibleWhen: { field: 'unlimited_quota', notIn: [true] },
        ...schema('remain_quota'),
      },
      { field: 'unlimited_quota', kind: 'switch', labelKey: 'tokens.fields.unlimited_quota', helpKey: 'tokens.form.unlimitedHelp', default: false },
      {
        field: 'expired_time',
        kind: 'expiry',
        labelKey: 'tokens.fields.expired_time',
        placeholderKey: 'tokens.form.expiryPlaceholder',
        presets: EXPIRY_PRESETS,
        invalidMessageKey: 'tokens.messages.badExpiry',
        default: -1,
      },
      {
        field: 'count',
        kind: 'number',
        labelKey: 'tokens.fields.count',
        helpKey: 'tokens.form.countHelp',
        modes: ['create'],
        presets: [10, 20, 30, 100].map((value) => ({ value })),
        ...schema('count'),
      },
      { field: 'group', kind: 'select', labelKey: 'tokens.fields.group', placeholderKey: 'tokens.form.groupPlaceholder', options: { kind: 'fetch', url: '/api/user/self/groups' }, emptyOptionsKey: 'tokens.form.noGroups' },
      { field: 'model_limits_enabled', kind: 'switch', labelKey: 'tokens.fields.model_limits_enabled', default: false, group: 'limits' },
      {
        field: 'model_limits',
        kind: 'select',
        multiple: true,
        joinWith: ',',
        labelKey: 'tokens.fields.model_limits',
        placeholderKey: 'tokens.form.modelsPlaceholder',
        options: { kind: 'fetch', url: '/api/user/models' },
        // Shown only with the limit on, and then a limit needs a model (the server refuses it too).
        required: true,
        requiredMessageKey: 'tokens.messages.modelsRequired',
        visibleWhen: { field: 'model_limits_enabled', in: [true] },
        group: 'limits',
      },
      { field: 'allow_ips', kind: 'textarea', labelKey: 'tokens.fields.allow_ips', placeholderKey: 'tokens.form.ipsPlaceholder', rows: 3, group: 'limits' },
    ],
  },
  messages: { created: 'tokens.messages.created', updated: 'tokens.messages.updated' },
  createLabelKey: 'tokens.actions.add',
});
