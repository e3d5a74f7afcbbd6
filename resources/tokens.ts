/**
 * API tokens (docs/tokens.md): every user manages their
 * own tokens, shown and copied with the `sk-` prefix; several can be created at once; the
 * chat-link action opens a saved chat with the token put in.
 * Its own texts are written here in both languages; words other screens show too are keys.
 */
import tokenSchema from '../schemas/entities/token.json';
import { defineResource, type Condition } from '../src/shared/resources/definition';
import { numberConstraintsOf, textConstraintsOf } from '../src/shared/resources/schema-constraints';
import { TOKEN_STATUS } from '../src/shared/token-status';

const textRules = (field: string) => textConstraintsOf(tokenSchema, field);
const numberRules = (field: string) => numberConstraintsOf(tokenSchema, field);
/** Texts a column and a form field share. */
const NAME = { zh: '名称', en: 'Name' };
const QUOTA = { zh: '额度', en: 'Quota' };
const UNLIMITED = { zh: '无限额度', en: 'Unlimited quota' };
const EXPIRES = { zh: '过期时间', en: 'Expires' };
const NEVER = { zh: '永不过期', en: 'Never' };
const GROUP = { zh: '分组', en: 'Group' };
const ENABLED: Condition = { field: 'status', in: [TOKEN_STATUS.enabled] };
const QUOTA_PRESETS = [500000, 5000000, 25000000, 50000000, 250000000, 500000000].map((value) => ({ value }));
const EXPIRY_PRESETS = [
  { value: -1, labelKey: NEVER },
  { value: 3600, labelKey: { zh: '一小时', en: '1 hour' } },
  { value: 86400, labelKey: { zh: '一天', en: '1 day' } },
  { value: 2592000, labelKey: { zh: '一个月', en: '1 month' } },
];

export const tokensResource = defineResource({
  name: 'tokens',
  labelKey: { zh: 'API 令牌', en: 'API tokens' },
  icon: 'key',
  api: '/api/token/',
  routes: { list: '/token', create: '/token/add', edit: '/token/edit/:id' },
  minRole: 1,
  banner: {
    type: 'warning',
    textKey: {
      zh: '令牌仅供您本人使用，请勿分享给他人或公开；令牌泄露将导致您的额度被他人消耗。',
      en: 'Tokens are for your personal use only: do not share or publish them; a leaked token spends your quota.',
    },
  },
  search: {
    path: 'search',
    fields: [
      { field: 'keyword', kind: 'text', placeholderKey: { zh: '搜索令牌的名称', en: 'Search token names' }, width: 220 },
      { field: 'token', kind: 'text', placeholderKey: { zh: '搜索令牌的密钥', en: 'Search token keys' }, width: 260 },
    ],
  },
  columns: [
    { field: 'name', titleKey: NAME, hideable: false },
    {
      field: 'status',
      titleKey: { zh: '状态', en: 'Status' },
      renderer: 'status-detail',
      values: {
        [TOKEN_STATUS.enabled]: { labelKey: { zh: '已启用', en: 'Enabled' }, color: 'green' },
        [TOKEN_STATUS.disabled]: { labelKey: { zh: '已禁用', en: 'Disabled' }, color: 'red' },
        [TOKEN_STATUS.expired]: { labelKey: { zh: '已过期', en: 'Expired' }, color: 'yellow' },
        [TOKEN_STATUS.exhausted]: { labelKey: { zh: '已耗尽', en: 'Exhausted' }, color: 'grey' },
      },
      unknown: { labelKey: { zh: '未知状态', en: 'Unknown' }, color: 'default' },
      cases: [{ when: [ENABLED, { field: 'model_limits_enabled', in: [true] }], value: { labelKey: { zh: '已启用：限制模型', en: 'Enabled: model limit' }, color: 'green' } }],
    },
    {
      field: 'remain_quota',
      titleKey: QUOTA,
      renderer: 'stat-tags',
      items: [
        { field: 'used_quota', labelKey: { zh: '已用', en: 'Used' }, format: 'quota', color: 'orange' },
        { field: 'remain_quota', labelKey: { zh: '剩余', en: 'Remaining' }, format: 'quota', color: 'green', unlimitedField: 'unlimited_quota' },
      ],
    },
    {
      field: 'unlimited_quota',
      titleKey: UNLIMITED,
      renderer: 'enum',
      values: { true: { labelKey: { zh: '无限额度', en: 'Unlimited' }, color: 'blue' }, false: { labelKey: { zh: '有限额度', en: 'Limited' }, color: 'default' } },
    },
    { field: 'key', titleKey: { zh: '密钥', en: 'Key' }, renderer: 'secret', prefix: 'sk-', hideable: false },
    { field: 'group', titleKey: GROUP, renderer: 'group', defaultHidden: true },
    { field: 'created_time', titleKey: { zh: '创建时间', en: 'Created' }, renderer: 'timestamp' },
    { field: 'expired_time', titleKey: EXPIRES, renderer: 'timestamp', neverValue: -1, neverKey: NEVER },
    { field: 'accessed_time', titleKey: { zh: '最近使用时间', en: 'Last used' }, renderer: 'timestamp', defaultHidden: true },
  ],
  rowActions: [
    { key: 'copy', kind: 'copy', labelKey: { zh: '复制', en: 'Copy' }, template: 'sk-{key}' },
    { key: 'chat', kind: 'chat-link', labelKey: { zh: '聊天', en: 'Chat' }, pickTitleKey: 'tokens.actions.chooseChat' },
    { key: 'disable', kind: 'status', status: TOKEN_STATUS.disabled, labelKey: { zh: '禁用', en: 'Disable' }, visibleWhen: ENABLED },
    { key: 'enable', kind: 'status', status: TOKEN_STATUS.enabled, labelKey: { zh: '启用', en: 'Enable' }, visibleWhen: { field: 'status', notIn: [TOKEN_STATUS.enabled] } },
    { key: 'edit', kind: 'edit', labelKey: 'crud.actions.edit' },
    {
      key: 'delete',
      kind: 'delete',
      labelKey: { zh: '删除', en: 'Delete' },
      danger: true,
      confirm: { titleKey: { zh: '确定是否要删除此令牌？', en: 'Delete this token?' }, contentKey: { zh: '此修改将不可逆', en: 'This cannot be undone' } },
      inMenu: true,
    },
  ],
  batchActions: [
    {
      key: 'copy',
      kind: 'copy',
      labelKey: { zh: '复制所选令牌', en: 'Copy selected tokens' },
      template: '{name}    sk-{key}',
      emptySelectionKey: { zh: '请至少选择一个令牌！', en: 'Please select at least one token!' },
    },
  ],
  form: {
    width: 600,
    groups: [{ key: 'limits', titleKey: { zh: '访问限制', en: 'Access limits' } }],
    fields: [
      { field: 'name', kind: 'text', labelKey: NAME, placeholderKey: { zh: '请输入名称', en: 'Token name' }, ...textRules('name'), default: '' },
      {
        field: 'remain_quota',
        kind: 'quota',
        labelKey: QUOTA,
        presets: QUOTA_PRESETS,
        required: true,
        visibleWhen: { field: 'unlimited_quota', notIn: [true] },
        ...numberRules('remain_quota'),
      },
      { field: 'unlimited_quota', kind: 'switch', labelKey: UNLIMITED, helpKey: { zh: '令牌额度不受限，但仍受用户余额限制', en: 'No token limit; your balance still applies' }, default: false },
      {
        field: 'expired_time',
        kind: 'expiry',
        labelKey: EXPIRES,
        placeholderKey: { zh: '留空表示永不过期，格式：YYYY-MM-DD HH:mm:ss', en: 'Empty means never; format YYYY-MM-DD HH:mm:ss' },
        presets: EXPIRY_PRESETS,
        invalidMessageKey: { zh: '过期时间格式错误！', en: 'The expiry time is not valid!' },
        default: -1,
      },
      {
        field: 'count',
        kind: 'number',
        labelKey: { zh: '新建数量', en: 'How many' },
        helpKey: { zh: '一次创建多个令牌时，除第一个外的名称会加上 6 位随机后缀', en: 'When creating several, all names but the first get a random 6-character suffix' },
        modes: ['create'],
        presets: [10, 20, 30, 100].map((value) => ({ value })),
        ...numberRules('count'),
      },
      {
        field: 'group',
        kind: 'select',
        labelKey: GROUP,
        placeholderKey: { zh: '不选则使用用户所在分组', en: 'Empty: your own group' },
        options: { kind: 'fetch', url: '/api/user/self/groups' },
        emptyOptionsKey: { zh: '管理员未设置用户可选分组', en: 'The administrator offers no groups to choose' },
      },
      { field: 'model_limits_enabled', kind: 'switch', labelKey: { zh: '启用模型限制', en: 'Limit models' }, default: false, group: 'limits' },
      {
        field: 'model_limits',
        kind: 'select',
        multiple: true,
        joinWith: ',',
        labelKey: { zh: '可用模型', en: 'Allowed models' },
        placeholderKey: { zh: '请选择允许使用的模型', en: 'Models this token may use' },
        options: { kind: 'fetch', url: '/api/user/models' },
        // Shown only with the limit on, and then a limit needs a model (the server refuses it too).
        required: true,
        requiredMessageKey: { zh: '请至少选择一个模型！', en: 'Please choose at least one model!' },
        visibleWhen: { field: 'model_limits_enabled', in: [true] },
        group: 'limits',
      },
      {
        field: 'allow_ips',
        kind: 'textarea',
        labelKey: { zh: 'IP 白名单', en: 'Allowed IPs' },
        placeholderKey: { zh: '允许的 IP，一行一个，留空不限制', en: 'Allowed IP addresses, one per line; empty allows all' },
        rows: 3,
        group: 'limits',
      },
    ],
  },
  messages: { created: { zh: '令牌创建成功，请在列表页面点击复制获取令牌！', en: 'Token created: copy it from the list!' }, updated: { zh: '令牌更新成功！', en: 'Token updated!' } },
  createLabelKey: { zh: '添加令牌', en: 'Add token' },
});
