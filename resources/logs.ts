/**
 * Usage log (docs/logs.md#queries): administrators read every user's logs
 * (username and channel filters and columns, retry chain, user details); everyone else
 * their own. A statistics strip shows quota, rpm and tpm for the current filters. Its texts
 * are written here in both languages.
 */
import { defineResource, type Bilingual } from '../src/shared/resources/definition';
import { LOG_TYPE, ROLE_ADMIN } from '../src/shared/roles';

const HOUR = 3600;
/** Timing, tokens and cost belong to consumption; top-up, admin and system rows leave them empty. */
const NOT_CONSUME = { field: 'type', notIn: [LOG_TYPE.consume] };
/** The log types, named alike in the type filter and the type column. */
const TYPES = {
  [LOG_TYPE.topup]: { zh: '充值', en: 'Top-up' },
  [LOG_TYPE.consume]: { zh: '消费', en: 'Consume' },
  [LOG_TYPE.manage]: { zh: '管理', en: 'Admin' },
  [LOG_TYPE.system]: { zh: '系统', en: 'System' },
} satisfies Record<number, Bilingual>;

export const logsResource = defineResource({
  name: 'logs',
  labelKey: { zh: '使用日志', en: 'Usage log' },
  icon: 'log',
  api: '/api/log/self/',
  adminApi: '/api/log/',
  routes: { list: '/log' },
  minRole: 1,
  search: {
    fields: [
      {
        field: 'type',
        kind: 'select',
        placeholderKey: { zh: '日志类型', en: 'Log type' },
        width: 120,
        options: {
          kind: 'static',
          options: [
            // The list reads type 0 as every type.
            { value: 0, labelKey: { zh: '全部', en: 'All' } },
            { value: LOG_TYPE.topup, labelKey: TYPES[LOG_TYPE.topup] },
            { value: LOG_TYPE.consume, labelKey: TYPES[LOG_TYPE.consume] },
            { value: LOG_TYPE.manage, labelKey: TYPES[LOG_TYPE.manage] },
            { value: LOG_TYPE.system, labelKey: TYPES[LOG_TYPE.system] },
          ],
        },
      },
      { field: 'token_name', kind: 'text', placeholderKey: { zh: '令牌名称', en: 'Token name' }, width: 150 },
      { field: 'model_name', kind: 'text', placeholderKey: { zh: '模型名称', en: 'Model name' }, width: 150 },
      { field: 'group', kind: 'text', placeholderKey: { zh: '分组', en: 'Group' }, width: 110 },
      { field: 'start_timestamp', kind: 'datetime', placeholderKey: { zh: '起始时间', en: 'From' }, defaultTime: { base: 'today' }, width: 190 },
      { field: 'end_timestamp', kind: 'datetime', placeholderKey: { zh: '结束时间', en: 'To' }, defaultTime: { base: 'now', offsetSeconds: HOUR }, width: 190 },
      { field: 'username', kind: 'text', placeholderKey: { zh: '用户名称', en: 'Username' }, width: 130, minRole: ROLE_ADMIN },
      { field: 'channel', kind: 'number', placeholderKey: { zh: '渠道 ID', en: 'Channel ID' }, width: 110, minRole: ROLE_ADMIN },
    ],
  },
  // Consume rows open to their billing breakdown (ratios, tokens, formula, timing, channels).
  expand: { detail: 'log-billing', when: { field: 'type', in: [LOG_TYPE.consume] } },
  stats: {
    path: 'stat',
    items: [
      { field: 'quota', labelKey: { zh: '消耗额度', en: 'Quota used' }, format: 'quota', color: 'blue' },
      { field: 'rpm', labelKey: { zh: 'RPM', en: 'RPM' }, format: 'number', color: 'pink' },
      { field: 'tpm', labelKey: { zh: 'TPM', en: 'TPM' }, format: 'number', color: 'geekblue' },
    ],
  },
  // The rows of the current filters as CSV (GET <api>export), streamed.
  download: {
    path: 'export',
    labelKey: { zh: '导出 CSV', en: 'Export CSV' },
    progressKey: { zh: '正在导出… 已接收 {{size}}', en: 'Exporting… {{size}} received' },
    doneKey: { zh: '导出完成', en: 'Export finished' },
    failedKey: { zh: '导出失败', en: 'Export failed' },
    fileName: 'logs.csv',
  },
  columns: [
    { field: 'created_at', titleKey: { zh: '时间', en: 'Time' }, renderer: 'timestamp', hideable: false },
    { field: 'channel', titleKey: { zh: '渠道', en: 'Channel' }, renderer: 'id-tag', minRole: ROLE_ADMIN },
    { field: 'username', titleKey: { zh: '用户', en: 'User' }, renderer: 'user-info', idField: 'user_id', minRole: ROLE_ADMIN },
    { field: 'token_name', titleKey: { zh: '令牌', en: 'Token' } },
    { field: 'group', titleKey: { zh: '分组', en: 'Group' }, renderer: 'group' },
    {
      field: 'type',
      titleKey: { zh: '类型', en: 'Type' },
      renderer: 'enum',
      values: {
        [LOG_TYPE.topup]: { labelKey: TYPES[LOG_TYPE.topup], color: 'cyan' },
        [LOG_TYPE.consume]: { labelKey: TYPES[LOG_TYPE.consume], color: 'lime' },
        [LOG_TYPE.manage]: { labelKey: TYPES[LOG_TYPE.manage], color: 'orange' },
        [LOG_TYPE.system]: { labelKey: TYPES[LOG_TYPE.system], color: 'purple' },
      },
      unknown: { labelKey: 'common.unknown', color: 'default' },
    },
    { field: 'model_name', titleKey: { zh: '模型', en: 'Model' } },
    {
      field: 'use_time',
      titleKey: { zh: '用时/首字', en: 'Time / first token' },
      renderer: 'latency',
      hideWhen: NOT_CONSUME,
      colors: {
        steps: [
          { max: 100.999, color: 'green' },
          { max: 299.999, color: 'orange' },
        ],
        over: 'red',
      },
      streamField: 'is_stream',
      firstTokenPath: 'other.frt',
      firstTokenColors: {
        steps: [
          { max: 2.999, color: 'green' },
          { max: 9.999, color: 'orange' },
        ],
        over: 'red',
      },
    },
    { field: 'prompt_tokens', titleKey: { zh: '提示', en: 'Prompt' }, renderer: 'number', hideWhen: NOT_CONSUME },
    { field: 'completion_tokens', titleKey: { zh: '补全', en: 'Completion' }, renderer: 'number', hideWhen: NOT_CONSUME },
    { field: 'quota', titleKey: { zh: '花费', en: 'Cost' }, renderer: 'quota', hideWhen: NOT_CONSUME },
    { field: 'retry', titleKey: { zh: '重试渠道', en: 'Channels tried' }, renderer: 'json-path', jsonPath: 'other.admin_info.use_channel', join: ' → ', minRole: ROLE_ADMIN },
    { field: 'content', titleKey: { zh: '详情', en: 'Details' }, renderer: 'json-dialog', dialog: 'text' },
  ],
});
