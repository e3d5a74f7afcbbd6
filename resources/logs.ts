/**
 * Usage log (docs/logs.md#queries): administrators read every user's logs
 * (username and channel filters and columns, retry chain, user details); everyone else
 * their own. A statistics strip shows quota, rpm and tpm for the current filters.
 */
import { defineResource } from '../src/shared/resources/definition';

const ADMIN = 10;
const HOUR = 3600;
/** Timing, tokens and cost belong to consumption; top-up, admin and system rows leave them empty. */
const NOT_CONSUME = { field: 'type', notIn: [2] };

export const logsResource = defineResource({
  name: 'logs',
  labelKey: 'logs.title',
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
        placeholderKey: 'logs.search.type',
        width: 120,
        options: {
          kind: 'static',
          options: [
            { value: 0, labelKey: 'logs.types.all' },
            { value: 1, labelKey: 'logs.types.1' },
            { value: 2, labelKey: 'logs.types.2' },
            { value: 3, labelKey: 'logs.types.3' },
            { value: 4, labelKey: 'logs.types.4' },
          ],
        },
      },
      { field: 'token_name', kind: 'text', placeholderKey: 'logs.search.token_name', width: 150 },
      { field: 'model_name', kind: 'text', placeholderKey: 'logs.search.model_name', width: 150 },
      { field: 'group', kind: 'text', placeholderKey: 'logs.search.group', width: 110 },
      { field: 'start_timestamp', kind: 'datetime', placeholderKey: 'logs.search.start', defaultTime: { base: 'today' }, width: 190 },
      { field: 'end_timestamp', kind: 'datetime', placeholderKey: 'logs.search.end', defaultTime: { base: 'now', offsetSeconds: HOUR }, width: 190 },
      { field: 'username', kind: 'text', placeholderKey: 'logs.search.username', width: 130, minRole: ADMIN },
      { field: 'channel', kind: 'number', placeholderKey: 'logs.search.channel', width: 110, minRole: ADMIN },
    ],
  },
  // Consume rows open to their billing breakdown (ratios, tokens, formula, timing, channels).
  expand: { detail: 'log-billing', when: { field: 'type', in: [2] } },
  stats: {
    path: 'stat',
    items: [
      { field: 'quota', labelKey: 'logs.stats.quota', format: 'quota', color: 'blue' },
      { field: 'rpm', labelKey: 'logs.stats.rpm', format: 'number', color: 'pink' },
      { field: 'tpm', labelKey: 'logs.stats.tpm', format: 'number', color: 'geekblue' },
    ],
  },
  // The rows of the current filters as CSV (GET <api>export), streamed.
  download: { path: 'export', labelKey: 'logs.export.button', progressKey: 'logs.export.progress', doneKey: 'logs.export.done', failedKey: 'logs.export.failed', fileName: 'logs.csv' },
  columns: [
    { field: 'created_at', titleKey: 'logs.fields.created_at', renderer: 'timestamp', hideable: false },
    { field: 'channel', titleKey: 'logs.fields.channel', renderer: 'id-tag', minRole: ADMIN },
    { field: 'username', titleKey: 'logs.fields.username', renderer: 'user-info', idField: 'user_id', minRole: ADMIN },
    { field: 'token_name', titleKey: 'logs.fields.token_name' },
    { field: 'group', titleKey: 'logs.fields.group', renderer: 'group' },
    {
      field: 'type',
      titleKey: 'logs.fields.type',
      renderer: 'enum',
      values: {
        1: { labelKey: 'logs.types.1', color: 'cyan' },
        2: { labelKey: 'logs.types.2', color: 'lime' },
        3: { labelKey: 'logs.types.3', color: 'orange' },
        4: { labelKey: 'logs.types.4', color: 'purple' },
      },
      unknown: { labelKey: 'logs.types.unknown', color: 'default' },
    },
    { field: 'model_name', titleKey: 'logs.fields.model_name' },
    {
      field: 'use_time',
      titleKey: 'logs.fields.use_time',
      renderer: 'latency',
      hideWhen: NOT_CONSUME,
      colors: { steps: [{ max: 100.999, color: 'green' }, { max: 299.999, color: 'orange' }], over: 'red' },
      streamField: 'is_stream',
      firstTokenPath: 'other.frt',
      firstTokenColors: { steps: [{ max: 2.999, color: 'green' }, { max: 9.999, color: 'orange' }], over: 'red' },
    },
    { field: 'prompt_tokens', titleKey: 'logs.fields.prompt_tokens', renderer: 'number', hideWhen: NOT_CONSUME },
    { field: 'completion_tokens', titleKey: 'logs.fields.completion_tokens', renderer: 'number', hideWhen: NOT_CONSUME },
    { field: 'quota', titleKey: 'logs.fields.quota', renderer: 'quota', hideWhen: NOT_CONSUME },
    { field: 'retry', titleKey: 'logs.fields.retry', renderer: 'json-path', jsonPath: 'other.admin_info.use_channel', join: ' → ', minRole: ADMIN },
    { field: 'content', titleKey: 'logs.fields.content', renderer: 'json-dialog', dialog: 'text' },
  ],
});
