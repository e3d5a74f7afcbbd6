/**
 * Audit log (administrators): every administrative change with who made it (user, IP),
 * when, what (kind, action, target) and the changed fields before and after, secrets
 * masked. Filtered by actor, kind and time range.
 */
import { defineResource } from '../src/shared/resources/definition';

const KINDS = ['option', 'channel', 'token', 'user', 'redemption'] as const;

export const auditResource = defineResource({
  name: 'audit',
  labelKey: 'audit.title',
  icon: 'audit',
  api: '/api/audit/',
  routes: { list: '/audit' },
  minRole: 10,
  search: {
    fields: [
      { field: 'actor', kind: 'text', placeholderKey: 'audit.search.actor', width: 150 },
      {
        field: 'kind',
        kind: 'select',
        placeholderKey: 'audit.search.kind',
        width: 140,
        options: { kind: 'static', options: [{ value: '', labelKey: 'audit.kinds.all' }, ...KINDS.map((k) => ({ value: k, labelKey: `audit.kinds.${k}` }))] },
      },
      { field: 'start_timestamp', kind: 'datetime', placeholderKey: 'audit.search.start', width: 190 },
      { field: 'end_timestamp', kind: 'datetime', placeholderKey: 'audit.search.end', width: 190 },
    ],
  },
  columns: [
    { field: 'created_at', titleKey: 'audit.fields.created_at', renderer: 'timestamp', hideable: false },
    { field: 'username', titleKey: 'audit.fields.username', renderer: 'user-info', idField: 'user_id' },
    { field: 'ip', titleKey: 'audit.fields.ip' },
    {
      field: 'kind',
      titleKey: 'audit.fields.kind',
      renderer: 'enum',
      values: {
        option: { labelKey: 'audit.kinds.option', color: 'purple' },
        channel: { labelKey: 'audit.kinds.channel', color: 'blue' },
        token: { labelKey: 'audit.kinds.token', color: 'cyan' },
        user: { labelKey: 'audit.kinds.user', color: 'orange' },
        redemption: { labelKey: 'audit.kinds.redemption', color: 'green' },
      },
      unknown: { labelKey: 'audit.kinds.unknown', color: 'default' },
    },
    { field: 'action', titleKey: 'audit.fields.action' },
    { field: 'target', titleKey: 'audit.fields.target' },
    { field: 'changes', titleKey: 'audit.fields.changes', renderer: 'json-dialog', dialog: 'text' },
  ],
});
