/**
 * Channel management (docs/channels.md): administrators
 * search, list plainly or by tag, test, refresh balances, edit priority and weight in the
 * row, tag, copy and enable or disable channels. The form shows the fields of the chosen
 * type; a create with several key lines makes one channel per key.
 * Its own texts are written here in both languages, a type's own inputs in the channel type
 * table (src/shared/channel-types.ts); words other screens show too are keys.
 */
import channelSchema from '../schemas/entities/channel.json';
import { defineResource, type Condition, type JsonFieldDef, type ModelPickerDef, type NumberFieldDef } from '../src/shared/resources/definition';
import { numberConstraintsOf, textConstraintsOf } from '../src/shared/resources/schema-constraints';
import { CHANNEL_STATUS, CHANNEL_TYPE, typesWithFormInputs } from '../src/shared/channel-types';

const GROUPS = { kind: 'fetch', url: '/api/group/' } as const;
const ALL_MODELS = { kind: 'fetch', url: '/api/channel/models', valueField: 'id', labelField: 'id' } as const;
const TAG_ROW: Condition = { field: 'is_tag', present: true };
const CHANNEL_ROW: Condition = { field: 'is_tag', present: false };
const textRules = (field: string) => textConstraintsOf(channelSchema, field);
const numberRules = (field: string) => numberConstraintsOf(channelSchema, field);
const ofType = (...types: number[]): Condition => ({ field: 'type', in: types });

/** Texts several entries share. */
const NAME = { zh: '名称', en: 'Name' };
const GROUPS_LABEL = { zh: '分组', en: 'Groups' };
const TYPE = { zh: '类型', en: 'Type' };
const MODELS = { zh: '模型', en: 'Models' };
const TAG = { zh: '标签', en: 'Tag' };
const KEY = { zh: '密钥', en: 'Key' };
const UPDATED = { zh: '渠道更新成功！', en: 'Channel updated!' };
const TESTED = { zh: '通道 {{name}} 测试成功，耗时 {{time}} 秒。', en: 'Channel {{name}} works: answered in {{time}} s.' };
const TAG_EDIT = { zh: '编辑标签', en: 'Edit tag' };
const NAME_AND_KEY = { zh: '请填写渠道名称和渠道密钥！', en: 'Please enter the channel name and key!' };
const IRREVERSIBLE = { zh: '此修改将不可逆', en: 'This cannot be undone' };

/** The type-specific inputs of the form, from the channel type table (docs/relay.md#channel-settings-per-type). */
const TYPE_INPUTS = typesWithFormInputs();
const OTHER_TYPES = TYPE_INPUTS.filter(({ inputs }) => inputs.other).map(({ type }) => type);
const otherHints = TYPE_INPUTS.flatMap(({ type, inputs: { other } }) => (other ? [{ when: ofType(type), labelKey: other.label, placeholderKey: other.placeholder }] : []));
const baseUrlHints = TYPE_INPUTS.flatMap(({ type, inputs: { baseUrl } }) => (baseUrl ? [{ when: ofType(type), labelKey: baseUrl.label, placeholderKey: baseUrl.placeholder }] : []));
// Only what the type has of its own replaces the field's texts (a key help: Vertex's one-JSON key).
const keyHints = TYPE_INPUTS.flatMap(({ type, inputs: { key, keyHelp } }) =>
  key || keyHelp ? [{ when: ofType(type), ...(key ? { placeholderKey: key } : {}), ...(keyHelp ? { helpKey: keyHelp } : {}) }] : [],
);

/**
 * The JSON fields: label, placeholder, the message when the text is not JSON, and the example
 * the reference's "fill template" button puts in (its EditChannel).
 */
const JSON_FIELDS = {
  model_mapping: {
    label: { zh: '模型重定向', en: 'Model mapping' },
    placeholder: {
      zh: '可选，用于修改请求体中的模型名称，为一个 JSON 字符串，键为请求中的模型名称，值为要替换的模型名称，例如：{"gpt-4o": "gpt-4o-2024-11-20"}',
      en: 'Optional JSON object: requested model → upstream model, e.g. {"gpt-4o": "gpt-4o-2024-11-20"}',
    },
    invalid: { zh: '模型映射必须是合法的 JSON 格式！', en: 'The model mapping must be valid JSON!' },
    template: { 'gpt-3.5-turbo': 'gpt-3.5-turbo-0125' },
  },
  status_code_mapping: {
    label: { zh: '状态码复写', en: 'Status code mapping' },
    placeholder: { zh: '可选，用于复写返回的状态码，例如：{"400": "500"}', en: 'Optional JSON object rewriting upstream status codes, e.g. {"400": "500"}' },
    invalid: { zh: '状态码复写必须是合法的 JSON 格式！', en: 'The status code mapping must be valid JSON!' },
    template: { '400': '500' },
  },
  setting: {
    label: { zh: '渠道额外设置', en: 'Extra settings' },
    placeholder: { zh: '可选，例如：{"force_format": true, "proxy": "socks5://127.0.0.1:1080"}', en: 'Optional, e.g. {"force_format": true, "proxy": "socks5://127.0.0.1:1080"}' },
    invalid: { zh: '渠道额外设置必须是合法的 JSON 格式！', en: 'The extra settings must be valid JSON!' },
    template: undefined,
  },
  param_override: {
    label: { zh: '参数覆盖', en: 'Parameter override' },
    placeholder: { zh: '可选，覆盖请求体中的参数，例如：{"temperature": 0}', en: 'Optional request body overrides, e.g. {"temperature": 0}' },
    invalid: { zh: '参数覆盖必须是合法的 JSON 格式！', en: 'The parameter override must be valid JSON!' },
    template: undefined,
  },
};

const jsonField = (field: keyof typeof JSON_FIELDS, rows = 4): JsonFieldDef => ({
  field,
  kind: 'json',
  labelKey: JSON_FIELDS[field].label,
  placeholderKey: JSON_FIELDS[field].placeholder,
  jsonMessageKey: JSON_FIELDS[field].invalid,
  rows,
  template: JSON_FIELDS[field].template,
  group: field === 'model_mapping' ? undefined : 'advanced',
});

/** Priority and weight: edited in the form, in the tag dialog and in the row. */
const NUMBERS = {
  priority: { label: { zh: '优先级', en: 'Priority' }, invalid: { zh: '优先级必须是不小于 -999 的整数', en: 'Priority must be a whole number of at least -999' } },
  weight: { label: { zh: '权重', en: 'Weight' }, invalid: { zh: '权重必须是不小于 0 的整数', en: 'Weight must be a whole number of at least 0' } },
};

const numberField = (field: keyof typeof NUMBERS, extra: Partial<NumberFieldDef> = {}): NumberFieldDef => ({
  field,
  kind: 'number',
  labelKey: NUMBERS[field].label,
  ...numberRules(field),
  ...extra,
});

/**
 * The model picker's sources and words: the type's models, every enabled model, and the
 * upstream's own list (the stored channel's when editing; when creating, asked with the
 * form's first key and its address, type and settings).
 */
const modelPicker = (actions: ModelPickerDef['actions']): ModelPickerDef => ({
  actions,
  typeDefaults: { url: '/api/models', typeField: 'type', defaultType: CHANNEL_TYPE.openai },
  allUrl: '/api/channel/models',
  upstream: {
    editUrl: '/api/channel/fetch_models/:id',
    createUrl: '/api/channel/fetch_models',
    keyField: 'key',
    keyNeededKey: 'channels.messages.keyNeeded',
    fields: { base_url: '', type: CHANNEL_TYPE.openai, setting: '' },
  },
  texts: {
    buttons: {
      'type-defaults': 'channels.picker.type-defaults',
      all: 'channels.picker.all',
      upstream: 'channels.picker.upstream',
      clear: 'channels.picker.clear',
      custom: 'channels.picker.customAdd',
    },
    customPlaceholder: 'channels.picker.customPlaceholder',
    duplicate: 'channels.messages.modelExists',
    fetched: 'channels.messages.modelsFetched',
    fetchFailed: 'channels.messages.fetchModelsFailed',
    loadFailed: 'channels.messages.enabledModelsFailed',
  },
});

const inlineEdit = (field: keyof typeof NUMBERS) => ({
  min: numberRules(field).min,
  integer: numberRules(field).integer,
  invalidKey: NUMBERS[field].invalid,
  successKey: UPDATED,
  rules: [
    { when: TAG_ROW, endpoint: 'tagEdit', body: { tag: { field: 'tag' }, [field]: { input: 'value' } } },
    { endpoint: 'update', body: { id: { field: 'id' }, [field]: { input: 'value' } } },
  ],
});

export const channelsResource = defineResource({
  name: 'channels',
  labelKey: { zh: '渠道管理', en: 'Channels' },
  icon: 'channel',
  api: '/api/channel/',
  routes: { list: '/channel', create: '/channel/add', edit: '/channel/edit/:id' },
  minRole: 10,
  toggles: [
    { param: 'id_sort', labelKey: { zh: 'ID 排序', en: 'Sort by ID' }, storageKey: 'id-sort' },
    { param: 'tag_mode', labelKey: { zh: '标签聚合模式', en: 'Group by tag' } },
  ],
  search: {
    path: 'search',
    fields: [
      { field: 'keyword', kind: 'text', placeholderKey: { zh: '搜索渠道的 ID、名称和密钥', en: 'Search channel ID, name or key' }, width: 260 },
      { field: 'group', kind: 'select', placeholderKey: { zh: '分组', en: 'Group' }, options: GROUPS, width: 140 },
      { field: 'model', kind: 'text', placeholderKey: { zh: '模型关键字', en: 'Model keyword' }, width: 180 },
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
    { field: 'id', titleKey: { zh: 'ID', en: 'ID' }, width: 70, hideable: false, hideWhen: TAG_ROW },
    // At 1280 px the name is cut (whole in a tooltip) and the monitoring columns (response time,
    // used/balance) wait for a 1600 px window, so priority, weight and the actions stay in view.
    { field: 'name', titleKey: NAME, renderer: 'tag-children', hideable: false, width: 200, ellipsis: true },
    { field: 'group', titleKey: GROUPS_LABEL, renderer: 'group' },
    { field: 'type', titleKey: TYPE, renderer: 'channel-type' },
    {
      field: 'status',
      titleKey: { zh: '状态', en: 'Status' },
      renderer: 'status-detail',
      values: {
        [CHANNEL_STATUS.enabled]: { labelKey: { zh: '已启用', en: 'Enabled' }, color: 'green' },
        [CHANNEL_STATUS.disabled]: { labelKey: { zh: '已禁用', en: 'Disabled' }, color: 'red' },
        [CHANNEL_STATUS.autoDisabled]: { labelKey: { zh: '自动禁用', en: 'Auto-disabled' }, color: 'yellow' },
      },
      unknown: { labelKey: { zh: '未知状态', en: 'Unknown' }, color: 'default' },
      reasonPath: 'other_info.status_reason',
      reasonTimePath: 'other_info.status_time',
      reasonFor: [2, 3],
    },
    { field: 'response_time', titleKey: { zh: '响应时间', en: 'Response time' }, renderer: 'response-time', showFrom: 'xxl' },
    {
      field: 'balance',
      titleKey: { zh: '已用/余额', en: 'Used / balance' },
      renderer: 'action-tag',
      showFrom: 'xxl',
      actionKey: 'balance',
      format: 'currency',
      leading: { field: 'used_quota', labelKey: { zh: '已用', en: 'Used' }, format: 'quota', color: 'default' },
      timeField: 'balance_updated_time',
      timeKey: { zh: '余额更新时间：{{time}}', en: 'Balance read at {{time}}' },
    },
    { field: 'priority', titleKey: NUMBERS.priority.label, renderer: 'inline-number', inlineEdit: inlineEdit('priority') },
    { field: 'weight', titleKey: NUMBERS.weight.label, renderer: 'inline-number', inlineEdit: inlineEdit('weight') },
    { field: 'models', titleKey: MODELS, renderer: 'list-tags', maxTags: 2, defaultHidden: true },
    { field: 'tag', titleKey: TAG, defaultHidden: true },
    { field: 'created_time', titleKey: { zh: '创建时间', en: 'Created' }, renderer: 'timestamp', defaultHidden: true },
  ],
  rowActions: [
    {
      key: 'test',
      kind: 'request',
      labelKey: { zh: '测试', en: 'Test' },
      endpoint: 'test',
      withReply: true,
      successKey: TESTED,
      visibleWhen: CHANNEL_ROW,
    },
    {
      key: 'testModel',
      kind: 'pick-request',
      labelKey: { zh: '选择模型测试', en: 'Test with a model' },
      endpoint: 'test',
      pickField: 'models',
      pickQuery: 'model',
      pickTitleKey: { zh: '选择要测试的模型', en: 'Choose a model to test' },
      withReply: true,
      successKey: TESTED,
      visibleWhen: CHANNEL_ROW,
      inMenu: true,
    },
    { key: 'edit', kind: 'edit', labelKey: 'crud.actions.edit', visibleWhen: CHANNEL_ROW },
    { key: 'disable', kind: 'status', status: CHANNEL_STATUS.disabled, labelKey: { zh: '禁用', en: 'Disable' }, visibleWhen: [CHANNEL_ROW, { field: 'status', in: [CHANNEL_STATUS.enabled] }] },
    { key: 'enable', kind: 'status', status: CHANNEL_STATUS.enabled, labelKey: { zh: '启用', en: 'Enable' }, visibleWhen: [CHANNEL_ROW, { field: 'status', notIn: [CHANNEL_STATUS.enabled] }] },
    {
      key: 'tagEnable',
      kind: 'request',
      labelKey: { zh: '启用全部', en: 'Enable all' },
      endpoint: 'tagEnable',
      body: { tag: { field: 'tag' } },
      visibleWhen: TAG_ROW,
    },
    {
      key: 'tagDisable',
      kind: 'request',
      labelKey: { zh: '禁用全部', en: 'Disable all' },
      endpoint: 'tagDisable',
      body: { tag: { field: 'tag' } },
      visibleWhen: TAG_ROW,
    },
    {
      key: 'tagEdit',
      kind: 'dialog',
      labelKey: TAG_EDIT,
      endpoint: 'tagEdit',
      visibleWhen: TAG_ROW,
      successKey: { zh: '已更新 {{data}} 个通道！', en: 'Updated {{data}} channels!' },
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
        titleKey: TAG_EDIT,
        initialFrom: { new_tag: 'tag', models: 'models', groups: 'group', priority: 'priority', weight: 'weight' },
        changedOnly: true,
        noChangeKey: { zh: '没有任何修改！', en: 'Nothing has changed!' },
        width: 640,
        fields: [
          { field: 'new_tag', kind: 'text', labelKey: { zh: '标签名', en: 'Tag name' }, helpKey: { zh: '留空则解散该标签', en: 'Leave empty to dissolve the tag' }, ...textRules('tag') },
          { field: 'models', kind: 'model-picker', labelKey: MODELS, options: ALL_MODELS, picker: modelPicker(['all', 'clear', 'custom']) },
          { field: 'groups', kind: 'select', multiple: true, joinWith: ',', labelKey: GROUPS_LABEL, options: GROUPS },
          { ...jsonField('model_mapping'), group: undefined, helpKey: { zh: '留空则不修改模型重定向', en: "Leave empty to keep each channel's model mapping" } },
          numberField('priority', { default: undefined }),
          numberField('weight', { default: undefined }),
        ],
      },
    },
    {
      key: 'balance',
      kind: 'request',
      labelKey: { zh: '余额', en: 'Balance' },
      endpoint: 'balance',
      withReply: true,
      successKey: { zh: '通道 {{name}} 余额更新成功，余额 ${{balance}}', en: 'Balance of channel {{name}} updated: ${{balance}}' },
      visibleWhen: CHANNEL_ROW,
      inMenu: true,
    },
    {
      key: 'copy',
      kind: 'duplicate',
      labelKey: { zh: '复制渠道', en: 'Copy channel' },
      omit: ['key', 'used_quota', 'response_time', 'test_time', 'balance', 'balance_updated_time', 'created_time', 'other_info'],
      nameSuffixKey: { zh: '_复制', en: '_copy' },
      notFoundKey: { zh: '渠道未找到，请刷新页面后重试。', en: 'Channel not found, please refresh the page and try again.' },
      failedKey: { zh: '渠道复制失败', en: 'Failed to copy the channel' },
      successKey: { zh: '渠道复制成功', en: 'Channel copied' },
      visibleWhen: CHANNEL_ROW,
      inMenu: true,
    },
    {
      key: 'delete',
      kind: 'delete',
      labelKey: { zh: '删除', en: 'Delete' },
      danger: true,
      confirm: { titleKey: { zh: '确定是否要删除此渠道？', en: 'Delete this channel?' }, contentKey: IRREVERSIBLE },
      visibleWhen: CHANNEL_ROW,
      inMenu: true,
    },
  ],
  batchActions: [
    {
      key: 'delete',
      kind: 'request',
      labelKey: { zh: '删除所选通道', en: 'Delete selected' },
      endpoint: 'batchDelete',
      body: { ids: { selected: 'id' } },
      danger: true,
      confirm: { titleKey: { zh: '确定是否要删除所选通道？', en: 'Delete the selected channels?' }, contentKey: IRREVERSIBLE },
      emptySelectionKey: { zh: '请先选择要删除的通道！', en: 'Please select the channels to delete first!' },
      successKey: { zh: '已删除 {{data}} 个通道！', en: 'Deleted {{data}} channels!' },
    },
    {
      key: 'tag',
      kind: 'dialog',
      labelKey: { zh: '批量设置标签', en: 'Set tag' },
      endpoint: 'batchTag',
      body: { ids: { selected: 'id' }, tag: { input: 'tag' } },
      emptySelectionKey: { zh: '请先选择要设置标签的通道！', en: 'Please select the channels to tag first!' },
      successKey: { zh: '已为 {{data}} 个通道设置标签！', en: 'Tagged {{data}} channels!' },
      dialog: {
        titleKey: { zh: '批量设置标签', en: 'Set a tag on the selected channels' },
        fields: [{ field: 'tag', kind: 'text', labelKey: TAG, required: true, requiredMessageKey: { zh: '标签不能为空！', en: 'The tag cannot be empty!' }, ...textRules('tag') }],
      },
    },
  ],
  toolbarActions: [
    {
      key: 'testAll',
      kind: 'request',
      labelKey: { zh: '测试所有通道', en: 'Test all channels' },
      endpoint: 'testAll',
      successKey: { zh: '已成功开始测试所有通道，请刷新页面查看结果。', en: 'Testing every channel has started; refresh the page to see the results.' },
    },
    {
      key: 'balanceAll',
      kind: 'request',
      labelKey: { zh: '更新所有已启用通道余额', en: 'Refresh all balances' },
      endpoint: 'balanceAll',
      successKey: { zh: '已更新完毕所有已启用通道余额！', en: 'Balances of all enabled channels updated!' },
    },
    {
      key: 'deleteDisabled',
      kind: 'request',
      labelKey: { zh: '删除禁用通道', en: 'Delete disabled' },
      endpoint: 'deleteDisabled',
      danger: true,
      confirm: { titleKey: { zh: '确定是否要删除禁用通道？', en: 'Delete every disabled channel?' }, contentKey: IRREVERSIBLE },
      successKey: { zh: '已删除所有禁用渠道，共计 {{data}} 个', en: 'Deleted every disabled channel: {{data}} in total' },
    },
    {
      key: 'fix',
      kind: 'request',
      labelKey: { zh: '修复数据库一致性', en: 'Repair abilities' },
      endpoint: 'fix',
      confirm: {
        titleKey: { zh: '确定是否要修复数据库一致性？', en: 'Repair the channel abilities?' },
        contentKey: { zh: '进行该操作时，可能导致渠道访问错误，请仅在数据库出现问题时使用', en: 'Requests may fail while this runs; use it only when the database is inconsistent' },
      },
      successKey: { zh: '已修复，共 {{data}} 个通道', en: 'Repaired: {{data}} channels' },
    },
  ],
  form: {
    width: 680,
    groups: [{ key: 'advanced', titleKey: { zh: '高级设置', en: 'Advanced' } }],
    fields: [
      { field: 'type', kind: 'select', labelKey: TYPE, options: { kind: 'registry', name: 'channel-types' }, required: true, default: CHANNEL_TYPE.openai },
      {
        field: 'name',
        kind: 'text',
        labelKey: NAME,
        placeholderKey: { zh: '请为渠道命名', en: 'Name this channel' },
        required: true,
        requiredMessageKey: NAME_AND_KEY,
        ...textRules('name'),
      },
      {
        field: 'base_url',
        kind: 'text',
        labelKey: { zh: '代理', en: 'Proxy' },
        placeholderKey: { zh: '可选，用于通过自定义 Base URL 进行请求，末尾不要带 /v1 和 /', en: 'Optional custom base URL, without a trailing /v1 or /' },
        hints: baseUrlHints,
        ...textRules('base_url'),
      },
      { field: 'other', kind: 'text', labelKey: { zh: '类型专用参数', en: 'Type-specific value' }, visibleWhen: ofType(...OTHER_TYPES), hints: otherHints, ...textRules('other') },
      {
        field: 'key',
        kind: 'textarea',
        labelKey: KEY,
        placeholderKey: { zh: '请输入密钥，一行一个', en: 'Keys, one per line' },
        helpKey: { zh: '新建时每行一个密钥，每个密钥创建一个渠道', en: 'When creating, one key per line: each key makes one channel' },
        modes: ['create'],
        required: true,
        requiredMessageKey: NAME_AND_KEY,
        rows: 3,
        hints: keyHints,
      },
      { field: 'key', kind: 'textarea', labelKey: KEY, placeholderKey: { zh: '留空表示不修改密钥', en: 'Leave empty to keep the stored key' }, modes: ['edit'], rows: 2 },
      {
        field: 'openai_organization',
        kind: 'text',
        labelKey: { zh: '组织', en: 'Organization' },
        placeholderKey: { zh: '请输入 OpenAI 组织 ID，例如 org-xxx（可选）', en: 'OpenAI organization ID, e.g. org-xxx (optional)' },
        visibleWhen: ofType(CHANNEL_TYPE.openai),
      },
      {
        field: 'models',
        kind: 'model-picker',
        labelKey: MODELS,
        placeholderKey: { zh: '请选择该渠道所支持的模型', en: 'Models this channel serves' },
        options: ALL_MODELS,
        picker: modelPicker(['type-defaults', 'all', 'upstream', 'clear', 'custom']),
        required: true,
        requiredMessageKey: { zh: '请至少选择一个模型！', en: 'Please choose at least one model!' },
      },
      { field: 'groups', kind: 'select', multiple: true, labelKey: GROUPS_LABEL, options: GROUPS, default: ['default'], initialFrom: { field: 'group', split: ',' } },
      jsonField('model_mapping'),
      {
        field: 'test_model',
        kind: 'text',
        labelKey: { zh: '默认测试模型', en: 'Default test model' },
        placeholderKey: { zh: '不填则使用模型列表中的第一个', en: 'Empty: the first model of the list' },
        ...textRules('test_model'),
      },
      { field: 'tag', kind: 'text', labelKey: TAG, ...textRules('tag') },
      numberField('priority', { group: 'advanced' }),
      numberField('weight', { group: 'advanced' }),
      {
        field: 'auto_ban',
        kind: 'switch',
        labelKey: { zh: '自动禁用', en: 'Auto disable' },
        helpKey: { zh: '开启后，渠道在请求失败且满足条件时会被自动禁用', en: 'When on, the channel is disabled automatically after qualifying failures' },
        switchValues: [1, 0],
        default: 1,
        group: 'advanced',
      },
      {
        field: 'max_input_tokens',
        kind: 'number',
        labelKey: { zh: '最大输入 Token', en: 'Max input tokens' },
        helpKey: { zh: '0 表示不限制', en: '0 means no limit' },
        group: 'advanced',
        ...numberRules('max_input_tokens'),
      },
      jsonField('status_code_mapping', 3),
      {
        field: 'proxy',
        kind: 'text',
        labelKey: { zh: '代理地址', en: 'Proxy address' },
        placeholderKey: { zh: '例如: socks5://user:pass@host:port', en: 'e.g. socks5://user:pass@host:port' },
        helpKey: {
          zh: '用于配置网络代理，支持 http、https、socks5 和 socks5h 协议；该渠道的所有上游请求都经由此代理，保存在渠道额外设置的 proxy 中',
          en: "Network proxy for this channel: http, https, socks5 or socks5h. Every upstream call of the channel goes through it; kept as proxy in the channel's extra settings",
        },
        jsonKeyOf: { field: 'setting', key: 'proxy' },
        group: 'advanced',
      },
      jsonField('setting', 3),
      jsonField('param_override', 3),
    ],
  },
  messages: { created: { zh: '渠道创建成功！', en: 'Channel created!' }, updated: UPDATED },
  createLabelKey: { zh: '添加渠道', en: 'Add channel' },
});
