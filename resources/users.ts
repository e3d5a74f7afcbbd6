/**
 * User management (docs/users.md#admin-endpoints): admins list and search users,
 * add one, edit one (quota through the add-a-signed-amount dialog) and promote, demote,
 * enable, disable or delete through `POST /api/user/manage`.
 */
import { defineResource, type Condition } from '../src/shared/resources/definition';
import { ROLE_ROOT } from '../src/shared/roles';

const ROOT_ROW: Condition = { field: 'role', in: [100] };
const GROUPS = { kind: 'fetch', url: '/api/group/' } as const;
const manage = (action: string) => ({ id: { field: 'id' }, action });

export const usersResource = defineResource({
  name: 'users',
  labelKey: 'users.title',
  icon: 'user',
  api: '/api/user/',
  routes: { list: '/user', create: '/user/edit', edit: '/user/edit/:id' },
  minRole: 10,
  search: {
    path: 'search',
    fields: [
      { field: 'keyword', kind: 'text', placeholderKey: 'users.search.keyword', width: 320 },
      { field: 'group', kind: 'select', placeholderKey: 'users.search.group', options: GROUPS, width: 160 },
    ],
  },
  endpoints: { manage: { method: 'post', path: 'manage' } },
  columns: [
    { field: 'id', titleKey: 'users.fields.id', width: 80, hideable: false },
    { field: 'username', titleKey: 'users.fields.username', secondaryField: 'display_name', hideable: false },
    { field: 'group', titleKey: 'users.fields.group', renderer: 'group' },
    {
      field: 'quota',
      titleKey: 'users.fields.quotaState',
      renderer: 'stat-tags',
      items: [
        { field: 'quota', labelKey: 'users.fields.remaining', format: 'quota', color: 'green' },
        { field: 'used_quota', labelKey: 'users.fields.used', format: 'quota', color: 'orange' },
        { field: 'request_count', labelKey: 'users.fields.requests', format: 'number', color: 'cyan' },
      ],
    },
    {
      field: 'aff_count',
      titleKey: 'users.fields.invitation',
      renderer: 'stat-tags',
      defaultHidden: true,
      items: [
        { field: 'aff_count', labelKey: 'users.fields.affCount', format: 'number', color: 'blue' },
        { field: 'aff_history_quota', labelKey: 'users.fields.affHistory', format: 'quota', color: 'purple' },
        { field: 'inviter_id', labelKey: 'users.fields.inviter', format: 'number', color: 'default' },
      ],
    },
    { field: 'email', titleKey: 'users.fields.email', defaultHidden: true },
    { field: 'role', titleKey: 'users.fields.role', renderer: 'role' },
    {
      field: 'status',
      titleKey: 'users.fields.status',
      renderer: 'status',
      values: {
        1: { labelKey: 'users.status.enabled', color: 'green' },
        2: { labelKey: 'users.status.disabled', color: 'red' },
      },
      unknown: { labelKey: 'users.status.unknown', color: 'default' },
    },
  ],
  form: {
    width: 560,
    groups: [{ key: 'bindings', titleKey: 'users.form.bindings' }],
    fields: [
      {
        field: 'username',
        kind: 'text',
        labelKey: 'users.fields.username',
        placeholderKey: 'users.form.usernamePlaceholder',
        required: true,
        requiredMessageKey: 'users.messages.usernamePasswordRequired',
        maxLength: 12,
      },
      { field: 'display_name', kind: 'text', labelKey: 'users.fields.displayName', placeholderKey: 'users.form.displayNamePlaceholder', maxLength: 20 },
      {
        field: 'password',
        kind: 'password',
        labelKey: 'users.fields.password',
        placeholderKey: 'users.form.passwordPlaceholder',
        modes: ['create'],
        required: true,
        requiredMessageKey: 'users.messages.usernamePasswordRequired',
        minLength: 8,
        maxLength: 20,
      },
      {
        field: 'password',
        kind: 'password',
        labelKey: 'users.fields.password',
        placeholderKey: 'users.form.newPasswordPlaceholder',
        modes: ['edit'],
        minLength: 8,
        maxLength: 20,
      },
      { field: 'group', kind: 'select', labelKey: 'users.fields.group', placeholderKey: 'users.form.groupPlaceholder', options: GROUPS, modes: ['edit'], required: true },
      { field: 'quota', kind: 'quota', labelKey: 'users.fields.quota', modes: ['edit'], integer: true, adjustDialog: true, required: true },
      ...(['github_id', 'oidc_id', 'wechat_id', 'telegram_id', 'linux_do_id', 'email'] as const).map((field) => ({
        field,
        kind: 'readonly' as const,
        labelKey: `users.fields.${field}`,
        helpKey: 'users.form.bindingReadonly',
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
      labelKey: 'users.actions.promote',
      endpoint: 'manage',
      body: manage('promote'),
      confirm: { titleKey: 'users.confirm.promote' },
      // Only root makes or unmakes administrators.
      minRole: ROLE_ROOT,
      visibleWhen: { field: 'role', in: [1] },
    },
    {
      key: 'demote',
      kind: 'request',
      labelKey: 'users.actions.demote',
      endpoint: 'manage',
      body: manage('demote'),
      confirm: { titleKey: 'users.confirm.demote' },
      // Only root makes or unmakes administrators.
      minRole: ROLE_ROOT,
      visibleWhen: { field: 'role', in: [10] },
    },
    {
      key: 'disable',
      kind: 'request',
      labelKey: 'users.actions.disable',
      endpoint: 'manage',
      body: manage('disable'),
      viewerOutranks: 'role',
      visibleWhen: { field: 'status', in: [1] },
      disabledWhen: ROOT_ROW,
    },
    {
      key: 'enable',
      kind: 'request',
      labelKey: 'users.actions.enable',
      endpoint: 'manage',
      body: manage('enable'),
      viewerOutranks: 'role',
      visibleWhen: { field: 'status', notIn: [1] },
      disabledWhen: { field: 'status', in: [3] },
    },
    {
      key: 'delete',
      kind: 'request',
      labelKey: 'users.actions.delete',
      endpoint: 'manage',
      body: manage('delete'),
      viewerOutranks: 'role',
      danger: true,
      confirm: { titleKey: 'users.confirm.deleteTitle', contentKey: 'users.confirm.deleteContent' },
      disabledWhen: ROOT_ROW,
    },
  ],
  softDelete: { field: 'DeletedAt', labelKey: 'users.deleted' },
  messages: { created: 'users.messages.created', updated: 'users.messages.updated' },
  createLabelKey: 'users.actions.add',
});
