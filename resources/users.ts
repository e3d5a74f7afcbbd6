/**
 * User management (docs/users.md#admin-endpoints): admins list and search users,
 * add one, edit one (quota through the add-a-signed-amount dialog) and promote, demote,
 * enable, disable or delete through `POST /api/user/manage`.
 * Its own texts are written here in both languages; words other screens show too are keys.
 */
import { defineResource, type Bilingual, type Condition } from '../src/shared/resources/definition';
import { ROLE_ADMIN, ROLE_COMMON, ROLE_ROOT, USER_STATUS_DISABLED, USER_STATUS_ENABLED } from '../src/shared/roles';

const ROOT_ROW: Condition = { field: 'role', in: [ROLE_ROOT] };
const GROUPS = { kind: 'fetch', url: '/api/group/' } as const;
const manage = (action: string) => ({ id: { field: 'id' }, action });
/** Texts a column and a form field (or two fields) share. */
const PASSWORD = { zh: '密码', en: 'Password' };
const CREDENTIALS_REQUIRED = { zh: '用户名和密码不能为空！', en: 'Username and password must not be empty!' };
const EMAIL = { zh: '邮箱', en: 'Email' };
/** The sign-in accounts a user binds from their personal settings, shown read-only on edit. */
const BINDINGS: Record<string, Bilingual> = {
  github_id: { zh: '已绑定的 GitHub 账户', en: 'Bound GitHub account' },
  oidc_id: { zh: '已绑定的 OIDC 账户', en: 'Bound OIDC account' },
  wechat_id: { zh: '已绑定的微信账户', en: 'Bound WeChat account' },
  telegram_id: { zh: '已绑定的 Telegram 账户', en: 'Bound Telegram account' },
  linux_do_id: { zh: '已绑定的 Linux DO 账户', en: 'Bound Linux DO account' },
  email: EMAIL,
};

export const usersResource = defineResource({
  name: 'users',
  labelKey: { zh: '用户管理', en: 'Users' },
  icon: 'user',
  api: '/api/user/',
  routes: { list: '/user', create: '/user/edit', edit: '/user/edit/:id' },
  minRole: 10,
  search: {
    path: 'search',
    fields: [
      { field: 'keyword', kind: 'text', placeholderKey: { zh: '搜索用户的 ID、用户名、显示名称以及邮箱地址', en: 'Search by ID, username, display name or email' }, width: 320 },
      { field: 'group', kind: 'select', placeholderKey: { zh: '选择分组', en: 'Choose a group' }, options: GROUPS, width: 160 },
    ],
  },
  endpoints: { manage: { method: 'post', path: 'manage' } },
  columns: [
    { field: 'id', titleKey: { zh: 'ID', en: 'ID' }, width: 80, hideable: false },
    { field: 'username', titleKey: 'users.fields.username', secondaryField: 'display_name', hideable: false },
    { field: 'group', titleKey: 'users.fields.group', renderer: 'group' },
    {
      field: 'quota',
      titleKey: { zh: '统计信息', en: 'Statistics' },
      renderer: 'stat-tags',
      items: [
        { field: 'quota', labelKey: { zh: '剩余', en: 'Left' }, format: 'quota', color: 'green' },
        { field: 'used_quota', labelKey: 'users.fields.used', format: 'quota', color: 'orange' },
        { field: 'request_count', labelKey: 'users.fields.requests', format: 'number', color: 'cyan' },
      ],
    },
    {
      field: 'aff_count',
      titleKey: { zh: '邀请信息', en: 'Invitations' },
      renderer: 'stat-tags',
      defaultHidden: true,
      items: [
        { field: 'aff_count', labelKey: { zh: '邀请', en: 'Invited' }, format: 'number', color: 'blue' },
        { field: 'aff_history_quota', labelKey: { zh: '收益', en: 'Earned' }, format: 'quota', color: 'purple' },
        { field: 'inviter_id', labelKey: { zh: '邀请人', en: 'Inviter' }, format: 'number', color: 'default' },
      ],
    },
    { field: 'email', titleKey: EMAIL, defaultHidden: true },
    { field: 'role', titleKey: { zh: '用户角色', en: 'Role' }, renderer: 'role' },
    {
      field: 'status',
      titleKey: { zh: '状态', en: 'Status' },
      renderer: 'status',
      values: {
        [USER_STATUS_ENABLED]: { labelKey: { zh: '已激活', en: 'Active' }, color: 'green' },
        [USER_STATUS_DISABLED]: { labelKey: { zh: '已封禁', en: 'Banned' }, color: 'red' },
      },
      unknown: { labelKey: { zh: '未知状态', en: 'Unknown status' }, color: 'default' },
    },
  ],
  form: {
    width: 560,
    groups: [{ key: 'bindings', titleKey: { zh: '绑定信息', en: 'Bindings' } }],
    fields: [
      {
        field: 'username',
        kind: 'text',
        labelKey: 'users.fields.username',
        placeholderKey: { zh: '请输入用户名', en: 'Enter a username' },
        required: true,
        requiredMessageKey: CREDENTIALS_REQUIRED,
        maxLength: 12,
      },
      { field: 'display_name', kind: 'text', labelKey: { zh: '显示名称', en: 'Display name' }, placeholderKey: { zh: '请输入显示名称', en: 'Enter a display name' }, maxLength: 20 },
      {
        field: 'password',
        kind: 'password',
        labelKey: PASSWORD,
        placeholderKey: { zh: '请输入密码', en: 'Enter a password' },
        modes: ['create'],
        required: true,
        requiredMessageKey: CREDENTIALS_REQUIRED,
        minLength: 8,
        maxLength: 20,
      },
      {
        field: 'password',
        kind: 'password',
        labelKey: PASSWORD,
        placeholderKey: { zh: '请输入新的密码，最短 8 位', en: 'Enter a new password, at least 8 characters' },
        modes: ['edit'],
        minLength: 8,
        maxLength: 20,
      },
      { field: 'group', kind: 'select', labelKey: 'users.fields.group', placeholderKey: { zh: '请选择分组', en: 'Choose a group' }, options: GROUPS, modes: ['edit'], required: true },
      { field: 'quota', kind: 'quota', labelKey: 'users.fields.quota', modes: ['edit'], integer: true, adjustDialog: true, required: true },
      ...Object.entries(BINDINGS).map(([field, label]) => ({
        field,
        kind: 'readonly' as const,
        labelKey: label,
        helpKey: { zh: '此项只读，需要用户通过个人设置页面的相关绑定按钮进行绑定，不可直接修改', en: 'Read-only: users bind these accounts themselves from their personal settings' },
        modes: ['edit' as const],
        group: 'bindings',
      })),
    ],
  },
  rowActions: [
    { key: 'edit', kind: 'edit', labelKey: 'crud.actions.edit', viewerOutranks: 'role' },
    {
      key: 'promote',
      kind: 'request',
      labelKey: { zh: '提升', en: 'Promote' },
      endpoint: 'manage',
      body: manage('promote'),
      confirm: { titleKey: { zh: '确定要提升此用户吗？', en: 'Promote this user?' } },
      // Only root makes or unmakes administrators.
      minRole: ROLE_ROOT,
      visibleWhen: { field: 'role', in: [ROLE_COMMON] },
    },
    {
      key: 'demote',
      kind: 'request',
      labelKey: { zh: '降级', en: 'Demote' },
      endpoint: 'manage',
      body: manage('demote'),
      confirm: { titleKey: { zh: '确定要降级此用户吗？', en: 'Demote this user?' } },
      // Only root makes or unmakes administrators.
      minRole: ROLE_ROOT,
      visibleWhen: { field: 'role', in: [ROLE_ADMIN] },
    },
    {
      key: 'disable',
      kind: 'request',
      labelKey: { zh: '禁用', en: 'Disable' },
      endpoint: 'manage',
      body: manage('disable'),
      viewerOutranks: 'role',
      visibleWhen: { field: 'status', in: [USER_STATUS_ENABLED] },
      disabledWhen: ROOT_ROW,
    },
    {
      key: 'enable',
      kind: 'request',
      labelKey: { zh: '启用', en: 'Enable' },
      endpoint: 'manage',
      body: manage('enable'),
      viewerOutranks: 'role',
      visibleWhen: { field: 'status', notIn: [USER_STATUS_ENABLED] },
      // Status 3 is none the product writes: the list shows it as unknown, its enable button disabled.
      disabledWhen: { field: 'status', in: [3] },
    },
    {
      key: 'delete',
      kind: 'request',
      labelKey: { zh: '注销', en: 'Delete' },
      endpoint: 'manage',
      body: manage('delete'),
      viewerOutranks: 'role',
      danger: true,
      confirm: { titleKey: { zh: '确定是否要注销此用户？', en: 'Delete this user?' }, contentKey: { zh: '相当于删除用户，此修改将不可逆', en: 'This deregisters the user and cannot be undone' } },
      disabledWhen: ROOT_ROW,
    },
  ],
  softDelete: { field: 'DeletedAt', labelKey: { zh: '已注销', en: 'Deregistered' } },
  messages: { created: { zh: '用户账户创建成功！', en: 'User account created!' }, updated: { zh: '用户信息更新成功！', en: 'User updated!' } },
  createLabelKey: { zh: '添加用户', en: 'Add user' },
});
