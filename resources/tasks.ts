/**
 * Music task log (docs/tasks.md#task-lists): administrators see every
 * task with its channel (click copies the id), users their own. The task id opens the full
 * record as JSON; the result plays each generated clip or opens the lyrics; the failure
 * reason opens its text.
 */
import { defineResource } from '../src/shared/resources/definition';

const ADMIN = 10;
const STATUS_COLORS: Record<string, string> = {
  SUCCESS: 'green',
  NOT_START: 'default',
  SUBMITTED: 'yellow',
  IN_PROGRESS: 'blue',
  FAILURE: 'red',
  QUEUED: 'orange',
  UNKNOWN: 'default',
  '': 'default',
};

export const tasksResource = defineResource({
  name: 'tasks',
  labelKey: 'tasks.title',
  icon: 'task',
  api: '/api/task/self/',
  adminApi: '/api/task/',
  routes: { list: '/task' },
  minRole: 1,
  pageSizes: [10, 20, 50, 100],
  search: {
    fields: [
      { field: 'channel_id', kind: 'number', placeholderKey: 'tasks.search.channel_id', width: 120, minRole: ADMIN },
      { field: 'task_id', kind: 'text', placeholderKey: 'tasks.search.task_id', width: 220 },
      { field: 'start_timestamp', kind: 'datetime', placeholderKey: 'tasks.search.start', defaultTime: { base: 'today' }, width: 190 },
      { field: 'end_timestamp', kind: 'datetime', placeholderKey: 'tasks.search.end', width: 190 },
    ],
  },
  columns: [
    { field: 'submit_time', titleKey: 'tasks.fields.submit_time', renderer: 'timestamp', hideable: false },
    { field: 'finish_time', titleKey: 'tasks.fields.finish_time', renderer: 'timestamp' },
    { field: 'progress', titleKey: 'tasks.fields.progress', renderer: 'progress', shape: 'circle' },
    { field: 'spent', titleKey: 'tasks.fields.spent', renderer: 'duration', startField: 'submit_time', endField: 'finish_time', redAbove: 60 },
    { field: 'channel_id', titleKey: 'tasks.fields.channel_id', renderer: 'id-tag', minRole: ADMIN },
    { field: 'platform', titleKey: 'tasks.fields.platform', renderer: 'enum', values: { suno: { labelKey: 'tasks.platforms.suno', color: 'green' } }, unknown: { labelKey: 'tasks.unknown' } },
    {
      field: 'action',
      titleKey: 'tasks.fields.action',
      renderer: 'enum',
      values: { MUSIC: { labelKey: 'tasks.actions.MUSIC', color: 'cyan' }, LYRICS: { labelKey: 'tasks.actions.LYRICS', color: 'purple' } },
      unknown: { labelKey: 'tasks.unknown' },
    },
    { field: 'task_id', titleKey: 'tasks.fields.task_id', renderer: 'json-dialog', dialog: 'record' },
    {
      field: 'status',
      titleKey: 'tasks.fields.status',
      renderer: 'enum',
      values: Object.fromEntries(Object.entries(STATUS_COLORS).map(([value, color]) => [value, { labelKey: `tasks.status.${value || 'SUBMITTING'}`, color }])),
      unknown: { labelKey: 'tasks.status.UNKNOWN' },
    },
    { field: 'data', titleKey: 'tasks.fields.result', renderer: 'task-result', emptyKey: 'tasks.none' },
    { field: 'fail_reason', titleKey: 'tasks.fields.fail_reason', renderer: 'json-dialog', dialog: 'text', emptyKey: 'tasks.none' },
  ],
});
