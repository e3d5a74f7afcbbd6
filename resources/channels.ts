/**
 * Channel management (docs/channels.md): administrators
 * search, list plainly or by tag, test, refresh balances, edit priority and weight in the
 * row, tag, copy and enable or disable channels. The form shows the fields of the chosen
 * type; a create with several key lines makes one channel per key.
 */
import channelSchema from '../schemas/entities/channel.json';
import { defineResource, type Condition, type FormFieldDef } from '../src/shared/resources/definition';
import { constraintsOf } from '../src/shared/resources/schema-constraints';
import { typesWithFormInput } from '../src/shared/channel-types';

const GROUPS = { kind: 'fetch', url: '/api/group/' } as const;
const ALL_MODELS = { kind: 'fetch', url: '/api/channel/models', valueField: 'id', labelField: 'id' } as const;
const TAG_ROW: Condition = { field: 'is_tag', present: true };
const CHANNEL_ROW: Condition = { field: 'is_tag', present: false };
const schema = (field: string) => constraintsOf(channelSchema, field);
const ofType = (...types: number[]): Condition => ({ field: 'type', in: types });

/** The type-specific inputs of the form, from the channel type table (docs/relay.md#channel-settings-per-type). */
const OTHER_TYPES = typesWithFormInput('other');
const otherHints = OTHER_TYPES.map((type) => ({
  when: ofType(type),
  labelKey: `channels.form.other.${type}.label`,
  placeholderKey: `channels.form.other.${type}.placeholder`,
}));
const baseUrlHints = typesWithFormInput('baseUrl').map((type) => ({
  when: ofType(type),
  labelKey: `channels.form.baseUrl.${type}.label`,
  placeholderKey: `channels.form.baseUrl.${type}.placeholder`,
}));
const keyTypes = typesWithFormInput('key');
const keyHelpTypes = typesWithFormInput('keyHelp');
// Only what the type has of its own replaces the field's texts (a key help: Vertex's one-JSON key).
const keyHints = [...new Set([...keyTypes, ...keyHelpTypes])].map((type) => ({
  when: ofType(type),
  ...(keyTypes.includes(type) ? { placeholderKey: `channels.form.key.${type}` } : {}),
  ...(keyHelpTypes.includes(type) ? { helpKey: `channels.form.keyHelpFor.${type}` } : {}),
}));

/** The examples the reference's "fill template" buttons put in (its EditChannel). */
const JSON_TEMPLATES: Record<string, Record<string, unknown>> = {
  model_mapping: { 'gpt-3.5-turbo': 'gpt-3.5-turbo-0125' },
  status_code_mapping: { '400': '500' },
};

const jsonField = (field: string, rows = 4): FormFieldDef => ({
  field,
  kind: 'json',
  labelKey: `channels.fields.${field}`,
  placeholderKey: `channels.form.${field}Placeholder`,
  jsonMessageKey: `channels.messages.${field}Json`,
  rows,
  template: JSON_TEMPLATES[field],
  group: field === 'model_mapping' ? undefined : 'advanced',
});

const numberField = (field: 'priority' | 'weight', extra: Partial<FormFieldDef> = {}): FormFieldDef => ({
  field,
  kind: 'number',
  labelKey: `channels.fields.${field}`,
  ...schema(field),
  ...extra,
});

const inlineEdit = (field: 'priority' | 'weight') => ({
  min: schema(field).min,
  integer: schema(field).integer,
  invalidKey: `channels.messages.${field}Invalid`,
  successKey: 'channels.messages.updated',
  rules: [
    { when: TAG_ROW, endpoint: 'tagEdit', body: { tag: { field: 'tag' }, [field]: { input: 'value' } } },
    { endpoint: 'update', body: { id: { field: 'id' }, [field]: { input: 'value' } } },
  ],
});

export const channelsResource = defineResource({
  name: 'channels',
  labelKey: 'channels.title',
  icon: 'channel',
  api: '/api/channel/',
  routes: { list: '/channel', create: '/channel/add', edit: '/channel/edit/:id' },
  minRole: 10,
  toggles: [
    { param: 'id_sort', labelKey: 'channels.toggles.idSort', storageKey: 'id-sort' },
    { param: 'tag_mode', labelKey: 'channels.toggles.tagMode' },
  ],
  search: {
    path: 'search',
    fields: [
      { field: 'keyword', kind: 'text', placeholderKey: 'channels.search.keyword', width: 260 },
      { field: 'group', kind: 'select', placeholderKey: 'channels.search.group', options: GROUPS, width: 140 },
      { field: 'model', kind: 'text', placeholderKey: 'channels.search.model', width: 180 },
    ],
  },
  endpoints: {
    update: { method: 'put', path: '' },
    test: { method: 'get', path: 'test/:id' },
    testAll: { method: 'get', path: 'test' },
    balance: { method: 'get', path: 'update_balance/:id/' },
    balanceAll: { method: 'get', path: 'update_balance' },
    deleteDisabled: { method: 'delete', path: 'disabled' },
    batchDelete: { method: 'post', path: 'batch' },
    batchTag: { method: 'post', path: 'batch/tag' },
    fix: { method: 'post', path: 'fix' },
    tagEdit: { method: 'put', path: 'tag' },
    tagEnable: { method: 'post', path: 'tag/enabled' },
    tagDisable: { method: 'post', path: 'tag/disabled' },
  },
  selectableWhen: CHANNEL_ROW,
  columns: [
    { field: 'id', titleKey: 'channels.fields.id', width: 70, hideable: false, hideWhen: TAG_ROW },
    // At 1280 px the name is cut (whole in a tooltip) and the monitoring columns (response time,
    // used/balance) wait for a 1600 px window, so priority, weight and the actions stay in view.
    { field: 'name', titleKey: 'channels.fields.name', renderer: 'tag-children', hideable: false, width: 200, ellipsis: true },
    { field: 'group', titleKey: 'channels.fields.group', renderer: 'group' },
    { field: 'type', titleKey: 'channels.fields.type', renderer: 'channel-type' },
    {
      field: 'status',
      titleKey: 'channels.fields.status',
      renderer: 'status-detail',
      values: {
        1: { labelKey: 'channels.status.enabled', color: 'green' },
        2: { labelKey: 'channels.status.disabled', color: 'red' },
        3: { labelKey: 'channels.status.autoDisabled', color: 'yellow' },
      },
      unknown: { labelKey: 'channels.status.unknown', color: 'default' },
      reasonPath: 'other_info.status_reason',
      reasonTimePath: 'other_info.status_time',
      reasonFor: [2, 3],
    },
    { field: 'response_time', titleKey: 'channels.fields.response_time', renderer: 'response-time', showFrom: 'xxl' },
    {
      field: 'balance',
      titleKey: 'channels.fields.usage',
      renderer: 'action-tag',
      showFrom: 'xxl',
      actionKey: 'balance',
      format: 'currency',
      leading: { field: 'used_quota', labelKey: 'channels.fields.used', format: 'quota', color: 'default' },
      timeField: 'balance_updated_time',
      timeKey: 'channels.fields.balanceUpdatedAt',
    },
    { field: 'priority', titleKey: 'channels.fields.priority', renderer: 'inline-number', inlineEdit: inlineEdit('priority') },
    { field: 'weight', titleKey: 'channels.fields.weight', renderer: 'inline-number', inlineEdit: inlineEdit('weight') },
    { field: 'models', titleKey: 'channels.fields.models', renderer: 'list-tags', maxTags: 2, defaultHidden: true },
    { field: 'tag', titleKey: 'channels.fields.tag', defaultHidden: true },
    { field: 'created_time', titleKey: 'channels.fields.created_time', renderer: 'timestamp', defaultHidden: true },
  ],
  rowActions: [
    {
      key: 'test',
      kind: 'request',
      labelKey: 'channels.actions.test',
      endpoint: 'test',
      withReply: true,
      successKey: 'channels.messages.tested',
      visibleWhen: CHANNEL_ROW,
    },
    {
      key: 'testModel',
      kind: 'pick-request',
      labelKey: 'channels.actions.testModel',
      endpoint: 'test',
      pickField: 'models',
      pickQuery: 'model',
      pickTitleKey: 'channels.actions.testModelTitle',
      withReply: true,
      successKey: 'channels.messages.testedModel',
      visibleWhen: CHANNEL_ROW,
      inMenu: true,
    },
    { key: 'edit', kind: 'edit', labelKey: 'crud.actions.edit', visibleWhen: CHANNEL_ROW },
    { key: 'disable', kind: 'status', status: 2, labelKey: 'channels.actions.disable', visibleWhen: [CHANNEL_ROW, { field: 'status', in: [1] }] },
    { key: 'enable', kind: 'status', status: 1, labelKey: 'channels.actions.enable', visibleWhen: [CHANNEL_ROW, { field: 'status', notIn: [1] }] },
    {
      key: 'tagEnable',
      kind: 'request',
      labelKey: 'channels.actions.tagEnable',
      endpoint: 'tagEnable',
      body: { tag: { field: 'tag' } },
      visibleWhen: TAG_ROW,
    },
    {
      key: 'tagDisable',
      kind: 'request',
      labelKey: 'channels.actions.tagDisable',
      endpoint: 'tagDisable',
      body: { tag: { field: 'tag' } },
      visibleWhen: TAG_ROW,
    },
    {
      key: 'tagEdit',
      kind: 'dialog',
      labelKey: 'channels.actions.tagEdit',
      endpoint: 'tagEdit',
      visibleWhen: TAG_ROW,
      successKey: 'channels.messages.tagEdited',
      body: {
        tag: { field: 'tag' },
        new_tag: { input: 'new_tag' },
        model_mapping: { input: 'model_mapping' },
        models: { input: 'models' },
        groups: { input: 'groups' },
        priority: { input: 'priority' },
        weight: { input: 'weight' },
      },
      dialog: {
        titleKey: 'channels.tagEdit.title',
        initialFrom: { new_tag: 'tag', models: 'models', groups: 'group', priority: 'priority', weight: 'weight' },
        changedOnly: true,
        noChangeKey: 'channels.messages.nothingChanged',
        width: 640,
        fields: [
          { field: 'new_tag', kind: 'text', labelKey: 'channels.tagEdit.newTag', helpKey: 'channels.tagEdit.newTagHelp', ...schema('tag') },
          { field: 'models', kind: 'model-picker', labelKey: 'channels.fields.models', options: ALL_MODELS, pickerActions: ['all', 'clear', 'custom'] },
          { field: 'groups', kind: 'select', multiple: true, joinWith: ',', labelKey: 'channels.fields.group', options: GROUPS },
          { ...jsonField('model_mapping'), group: undefined, helpKey: 'channels.tagEdit.mappingHelp' },
          numberField('priority', { default: undefined }),
          numberField('weight', { default: undefined }),
        ],
      },
    },
    {
      key: 'balance',
      kind: 'request',
      labelKey: 'channels.actions.balance',
      endpoint: 'balance',
      withReply: true,
      successKey: 'channels.messages.balanceUpdated',
      visibleWhen: CHANNEL_ROW,
      inMenu: true,
    },
    {
      key: 'copy',
      kind: 'duplicate',
      labelKey: 'channels.actions.copy',
      omit: ['key', 'used_quota', 'response_time', 'test_time', 'balance', 'balance_updated_time', 'created_time', 'other_info'],
      nameSuffixKey: 'channels.copySuffix',
      notFoundKey: 'channels.messages.copyNotFound',
      failedKey: 'channels.messages.copyFailed',
      successKey: 'channels.messages.copied',
      visibleWhen: CHANNEL_ROW,
      inMenu: true,
    },
    {
      key: 'delete',
      kind: 'delete',
      labelKey: 'channels.actions.delete',
      danger: true,
      confirm: { titleKey: 'channels.confirm.deleteTitle', contentKey: 'channels.confirm.irreversible' },
      visibleWhen: CHANNEL_ROW,
      inMenu: true,
    },
  ],
  batchActions: [
    {
      key: 'delete',
      kind: 'request',
      labelKey: 'channels.actions.batchDelete',
      endpoint: 'batchDelete',
      body: { ids: { selected: 'id' } },
      danger: true,
      confirm: { titleKey: 'channels.confirm.batchDelete', contentKey: 'channels.confirm.irreversible' },
      emptySelectionKey: 'channels.messages.noSelectionDelete',
      successKey: 'channels.messages.batchDeleted',
    },
    {
      key: 'tag',
      kind: 'dialog',
      labelKey: 'channels.actions.batchTag',
      endpoint: 'batchTag',
      body: { ids: { selected: 'id' }, tag: { input: 'tag' } },
      emptySelectionKey: 'channels.messages.noSelectionTag',
      successKey: 'channels.messages.tagged',
      dialog: {
        titleKey: 'channels.batchTag.title',
        fields: [{ field: 'tag', kind: 'text', labelKey: 'channels.fields.tag', required: true, requiredMessageKey: 'channels.messages.tagRequired', ...schema('tag') }],
      },
    },
  ],
  toolbarActions: [
    { key: 'testAll', kind: 'request', labelKey: 'channels.actions.testAll', endpoint: 'testAll', successKey: 'channels.messages.testAllStarted' },
    { key: 'balanceAll', kind: 'request', labelKey: 'channels.actions.balanceAll', endpoint: 'balanceAll', successKey: 'channels.messages.balanceAllDone' },
    {
      key: 'deleteDisabled',
      kind: 'request',
      labelKey: 'channels.actions.deleteDisabled',
      endpoint: 'deleteDisabled',
      danger: true,
      confirm: { titleKey: 'channels.confirm.deleteDisabled', contentKey: 'channels.confirm.irreversible' },
      successKey: 'channels.messages.disabledDeleted',
    },
    {
      key: 'fix',
      kind: 'request',
      labelKey: 'channels.actions.fix',
      endpoint: 'fix',
      confirm: { titleKey: 'channels.confirm.fixTitle', contentKey: 'channels.confirm.fixContent' },
      successKey: 'channels.messages.fixed',
    },
  ],
  form: {
    width: 680,
    groups: [{ key: 'advanced', titleKey: 'channels.form.advanced' }],
    fields: [
      { field: 'type', kind: 'select', labelKey: 'channels.fields.type', options: { kind: 'registry', name: 'channel-types' }, required: true, default: 1 },
      {
        field: 'name',
        kind: 'text',
        labelKey: 'channels.fields.name',
        placeholderKey: 'channels.form.namePlaceholder',
        required: true,
        requiredMessageKey: 'channels.messages.nameAndKey',
        ...schema('name'),
      },
      { field: 'base_url', kind: 'text', labelKey: 'channels.form.baseUrl.default.label', placeholderKey: 'channels.form.baseUrl.default.placeholder', hints: baseUrlHints, ...schema('base_url') },
      { field: 'other', kind: 'text', labelKey: 'channels.fields.other', visibleWhen: ofType(...OTHER_TYPES), hints: otherHints, ...schema('other') },
      {
        field: 'key',
        kind: 'textarea',
        labelKey: 'channels.fields.key',
        placeholderKey: 'channels.form.key.batch',
        helpKey: 'channels.form.keyHelp',
        modes: ['create'],
        required: true,
        requiredMessageKey: 'channels.messages.nameAndKey',
        rows: 3,
        hints: keyHints,
      },
      { field: 'key', kind: 'textarea', labelKey: 'channels.fields.key', placeholderKey: 'channels.form.key.keep', modes: ['edit'], rows: 2 },
      { field: 'openai_organization', kind: 'text', labelKey: 'channels.fields.openai_organization', placeholderKey: 'channels.form.organizationPlaceholder', visibleWhen: ofType(1) },
      {
        field: 'models',
        kind: 'model-picker',
        labelKey: 'channels.fields.models',
        placeholderKey: 'channels.form.modelsPlaceholder',
        options: ALL_MODELS,
        pickerActions: ['type-defaults', 'all', 'upstream', 'clear', 'custom'],
        required: true,
        requiredMessageKey: 'channels.messages.modelsRequired',
      },
      { field: 'groups', kind: 'select', multiple: true, labelKey: 'channels.fields.group', options: GROUPS, default: ['default'], initialFrom: { field: 'group', split: ',' } },
      jsonField('model_mapping'),
      { field: 'test_model', kind: 'text', labelKey: 'channels.fields.test_model', placeholderKey: 'channels.form.testModelPlaceholder', ...schema('test_model') },
      { field: 'tag', kind: 'text', labelKey: 'channels.fields.tag', ...schema('tag') },
      numberField('priority', { group: 'advanced' }),
      numberField('weight', { group: 'advanced' }),
      { field: 'auto_ban', kind: 'switch', labelKey: 'channels.fields.auto_ban', helpKey: 'channels.form.autoBanHelp', switchValues: [1, 0], default: 1, group: 'advanced' },
      { field: 'max_input_tokens', kind: 'number', labelKey: 'channels.fields.max_input_tokens', helpKey: 'channels.form.maxInputHelp', group: 'advanced', ...schema('max_input_tokens') },
      jsonField('status_code_mapping', 3),
      {
        field: 'proxy',
        kind: 'text',
        labelKey: 'channels.form.proxy.label',
        placeholderKey: 'channels.form.proxy.placeholder',
        helpKey: 'channels.form.proxy.help',
        jsonKeyOf: { field: 'setting', key: 'proxy' },
        group: 'advanced',
      },
      jsonField('setting', 3),
      jsonField('param_override', 3),
    ],
  },
  messages: { created: 'channels.messages.created', updated: 'channels.messages.updated' },
  createLabelKey: 'channels.actions.add',
});
