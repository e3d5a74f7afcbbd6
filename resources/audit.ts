/**
 * Audit log (administrators): every administrative change with who made it (user, IP),
 * when, what (kind, action, target) and the changed fields before and after, secrets
 * masked. Filtered by actor, kind and time range. Its texts are written here in both languages.
 */
import { defineResource, type Bilingual } from '../src/shared/resources/definition';

/** What a change was made to, named alike in the kind filter and the kind column. */
const KINDS = {
  option: { zh: '设置', en: 'Setting' },
  channel: { zh: '渠道', en: 'Channel' },
  token: { zh: '令牌', en: 'Token' },
  user: { zh: '用户', en: 'User' },
  redemption: { zh: '兑换码', en: 'Redemption code' },
} satisfies Record<string, Bilingual>;

export const auditResource = defineResource({
  name: 'audit',
  labelKey: { zh: '审计日志', en: 'Audit log' },
  icon: 'audit',
  api: '/api/audit/',
  routes: { list: '/audit' },
  minRole: 10,
  search: {
    fields: [
      { field: 'actor', kind: 'text', placeholderKey: { zh: '用户名称', en: 'Username' }, width: 150 },
      {
        field: 'kind',
        kind: 'select',
        placeholderKey: { zh: '类别', en: 'Kind' },
        width: 140,
        options: { kind: 'static', options: [{ value: '', labelKey: { zh: '全部', en: 'All' } }, ...Object.entries(KINDS).map(([kind, label]) => ({ value: kind, labelKey: label }))] },
      },
      { field: 'start_timestamp', kind: 'datetime', placeholderKey: { zh: '起始时间', en: 'From' }, width: 190 },
      { field: 'end_timestamp', kind: 'datetime', placeholderKey: { zh: '结束时间', en: 'To' }, width: 190 },
    ],
  },
  columns: [
    { field: 'created_at', titleKey: { zh: '时间', en: 'Time' }, renderer: 'timestamp', hideable: false },
    { field: 'username', titleKey: { zh: '用户', en: 'User' }, renderer: 'user-info', idField: 'user_id' },
    { field: 'ip', titleKey: { zh: 'IP', en: 'IP' } },
    {
      field: 'kind',
      titleKey: { zh: '类别', en: 'Kind' },
      renderer: 'enum',
      values: {
        option: { labelKey: KINDS.option, color: 'purple' },
        channel: { labelKey: KINDS.channel, color: 'blue' },
        token: { labelKey: KINDS.token, color: 'cyan' },
        user: { labelKey: KINDS.user, color: 'orange' },
        redemption: { labelKey: KINDS.redemption, color: 'green' },
      },
      unknown: { labelKey: 'common.unknown', color: 'default' },
    },
    { field: 'action', titleKey: { zh: '操作', en: 'Action' } },
    { field: 'target', titleKey: { zh: '对象', en: 'Target' } },
    { field: 'changes', titleKey: { zh: '变更前 → 变更后', en: 'Before → after' }, renderer: 'json-dialog', dialog: 'text' },
  ],
});
