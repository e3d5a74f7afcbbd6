/**
 * Drawing (Midjourney) task log (docs/tasks.md#task-lists): administrators
 * see every task with its channel, users their own. Submit and finish times are stored in
 * milliseconds; spent time turns red above 60 s.
 */
import { defineResource, type EnumValue } from '../src/shared/resources/definition';

const ADMIN = 10;
const DAY = 86400;
const ACTIONS = ['IMAGINE', 'UPSCALE', 'VARIATION', 'HIGH_VARIATION', 'LOW_VARIATION', 'PAN', 'DESCRIBE', 'BLEND', 'UPLOAD', 'SHORTEN', 'REROLL', 'INPAINT', 'ZOOM', 'CUSTOM_ZOOM', 'MODAL', 'SWAP_FACE'];
const STATUS_COLORS: Record<string, string> = { SUCCESS: 'green', NOT_START: 'default', SUBMITTED: 'yellow', IN_PROGRESS: 'blue', FAILURE: 'red', MODAL: 'purple' };
const CODE_COLORS: Record<string, string> = { 1: 'green', 21: 'lime', 22: 'orange', 0: 'default' };

const valuesOf = (colors: Record<string, string>, prefix: string): Record<string, EnumValue> =>
  Object.fromEntries(Object.entries(colors).map(([value, color]) => [value, { labelKey: `${prefix}.${value}`, color }]));

export const midjourneyResource = defineResource({
  name: 'midjourney',
  labelKey: 'midjourney.title',
  icon: 'picture',
  api: '/api/mj/self/',
  adminApi: '/api/mj/',
  routes: { list: '/midjourney' },
  minRole: 1,
  search: {
    fields: [
      { field: 'channel_id', kind: 'number', placeholderKey: 'midjourney.search.channel_id', width: 120, minRole: ADMIN },
      { field: 'mj_id', kind: 'text', placeholderKey: 'midjourney.search.mj_id', width: 200 },
      { field: 'start_timestamp', kind: 'datetime', placeholderKey: 'midjourney.search.start', defaultTime: { base: 'now', offsetSeconds: -30 * DAY }, width: 190 },
      { field: 'end_timestamp', kind: 'datetime', placeholderKey: 'midjourney.search.end', defaultTime: { base: 'now', offsetSeconds: 3600 }, width: 190 },
    ],
  },
  columns: [
    { field: 'submit_time', titleKey: 'midjourney.fields.submit_time', renderer: 'timestamp', unit: 'ms', hideable: false },
    { field: 'finish_time', titleKey: 'midjourney.fields.finish_time', renderer: 'timestamp', unit: 'ms' },
    { field: 'spent', titleKey: 'midjourney.fields.spent', renderer: 'duration', startField: 'submit_time', endField: 'finish_time', unit: 'ms', redAbove: 60 },
    { field: 'channel_id', titleKey: 'midjourney.fields.channel_id', renderer: 'id-tag', minRole: ADMIN },
    { field: 'action', titleKey: 'midjourney.fields.action', renderer: 'enum', values: Object.fromEntries(ACTIONS.map((a) => [a, { labelKey: `midjourney.actions.${a}`, color: 'blue' }])), unknown: { labelKey: 'midjourney.unknown' } },
    { field: 'mj_id', titleKey: 'midjourney.fields.mj_id', copyable: true },
    { field: 'code', titleKey: 'midjourney.fields.code', renderer: 'enum', values: valuesOf(CODE_COLORS, 'midjourney.codes'), unknown: { labelKey: 'midjourney.unknown' }, minRole: ADMIN },
    { field: 'status', titleKey: 'midjourney.fields.status', renderer: 'enum', values: valuesOf(STATUS_COLORS, 'midjourney.status'), unknown: { labelKey: 'midjourney.unknown' } },
    { field: 'progress', titleKey: 'midjourney.fields.progress', renderer: 'progress', shape: 'line' },
    { field: 'image_url', titleKey: 'midjourney.fields.image_url', renderer: 'image' },
    { field: 'prompt', titleKey: 'midjourney.fields.prompt', renderer: 'json-dialog', dialog: 'text', emptyKey: 'midjourney.none' },
    { field: 'prompt_en', titleKey: 'midjourney.fields.prompt_en', renderer: 'json-dialog', dialog: 'text', emptyKey: 'midjourney.none', defaultHidden: true },
    { field: 'fail_reason', titleKey: 'midjourney.fields.fail_reason', renderer: 'json-dialog', dialog: 'text', emptyKey: 'midjourney.none' },
  ],
});
