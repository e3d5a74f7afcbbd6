/**
 * Music task log (docs/tasks.md#task-lists): administrators see every
 * task with its channel (click copies the id), users their own. The task id opens the full
 * record as JSON; the result plays each generated clip or opens the lyrics; the failure
 * reason opens its text. Its texts are written here in both languages (the result cell's own
 * words are the renderer's, `tasks.result.*` in the locale files).
 */
import { defineResource, type EnumValue } from '../src/shared/resources/definition';

const ADMIN = 10;
/** '' is a task still being submitted. */
const STATUS: Record<string, EnumValue> = {
  SUCCESS: { labelKey: { zh: '成功', en: 'Success' }, color: 'green' },
  NOT_START: { labelKey: { zh: '未启动', en: 'Not started' }, color: 'default' },
  SUBMITTED: { labelKey: { zh: '队列中', en: 'In queue' }, color: 'yellow' },
  IN_PROGRESS: { labelKey: { zh: '执行中', en: 'Running' }, color: 'blue' },
  FAILURE: { labelKey: { zh: '失败', en: 'Failed' }, color: 'red' },
  QUEUED: { labelKey: { zh: '排队中', en: 'Queuing' }, color: 'orange' },
  UNKNOWN: { labelKey: 'common.unknown', color: 'default' },
  '': { labelKey: { zh: '正在提交', en: 'Submitting' }, color: 'default' },
};

export const tasksResource = defineResource({
  name: 'tasks',
  labelKey: { zh: '任务日志', en: 'Task log' },
  icon: 'task',
  api: '/api/task/self/',
  adminApi: '/api/task/',
  routes: { list: '/task' },
  minRole: 1,
  pageSizes: [10, 20, 50, 100],
  search: {
    fields: [
      { field: 'channel_id', kind: 'number', placeholderKey: { zh: '渠道 ID', en: 'Channel ID' }, width: 120, minRole: ADMIN },
      { field: 'task_id', kind: 'text', placeholderKey: { zh: '任务 ID', en: 'Task ID' }, width: 220 },
      { field: 'start_timestamp', kind: 'datetime', placeholderKey: { zh: '起始时间', en: 'From' }, defaultTime: { base: 'today' }, width: 190 },
      { field: 'end_timestamp', kind: 'datetime', placeholderKey: { zh: '结束时间', en: 'To' }, width: 190 },
    ],
  },
  columns: [
    { field: 'submit_time', titleKey: { zh: '提交时间', en: 'Submitted' }, renderer: 'timestamp', hideable: false },
    { field: 'finish_time', titleKey: { zh: '结束时间', en: 'Finished' }, renderer: 'timestamp' },
    { field: 'progress', titleKey: { zh: '进度', en: 'Progress' }, renderer: 'progress', shape: 'circle' },
    { field: 'spent', titleKey: { zh: '花费时间', en: 'Time spent' }, renderer: 'duration', startField: 'submit_time', endField: 'finish_time', redAbove: 60 },
    { field: 'channel_id', titleKey: { zh: '渠道', en: 'Channel' }, renderer: 'id-tag', minRole: ADMIN },
    {
      field: 'platform',
      titleKey: { zh: '平台', en: 'Platform' },
      renderer: 'enum',
      values: { suno: { labelKey: { zh: 'Suno', en: 'Suno' }, color: 'green' } },
      unknown: { labelKey: 'common.unknown' },
    },
    {
      field: 'action',
      titleKey: { zh: '类型', en: 'Type' },
      renderer: 'enum',
      values: { MUSIC: { labelKey: { zh: '生成音乐', en: 'Generate music' }, color: 'cyan' }, LYRICS: { labelKey: { zh: '生成歌词', en: 'Generate lyrics' }, color: 'purple' } },
      unknown: { labelKey: 'common.unknown' },
    },
    { field: 'task_id', titleKey: { zh: '任务 ID', en: 'Task ID' }, renderer: 'json-dialog', dialog: 'record' },
    {
      field: 'status',
      titleKey: { zh: '任务状态', en: 'Status' },
      renderer: 'enum',
      values: STATUS,
      unknown: { labelKey: 'common.unknown' },
    },
    { field: 'data', titleKey: { zh: '结果', en: 'Result' }, renderer: 'task-result', emptyKey: 'common.none' },
    { field: 'fail_reason', titleKey: { zh: '失败原因', en: 'Failure reason' }, renderer: 'json-dialog', dialog: 'text', emptyKey: 'common.none' },
  ],
});
