/**
 * Drawing (Midjourney) task log (docs/tasks.md#task-lists): administrators
 * see every task with its channel, users their own. Submit and finish times are stored in
 * milliseconds; spent time turns red above 60 s. Its texts are written here in both languages.
 */
import { defineResource, type Bilingual, type EnumValue } from '../src/shared/resources/definition';

const ADMIN = 10;
const DAY = 86400;
const ACTIONS: Record<string, Bilingual> = {
  IMAGINE: { zh: '绘图', en: 'Imagine' },
  UPSCALE: { zh: '放大', en: 'Upscale' },
  VARIATION: { zh: '变换', en: 'Variation' },
  HIGH_VARIATION: { zh: '强变换', en: 'Strong variation' },
  LOW_VARIATION: { zh: '弱变换', en: 'Subtle variation' },
  PAN: { zh: '平移', en: 'Pan' },
  DESCRIBE: { zh: '图生文', en: 'Describe' },
  BLEND: { zh: '图混合', en: 'Blend' },
  UPLOAD: { zh: '上传文件', en: 'Upload' },
  SHORTEN: { zh: '缩词', en: 'Shorten' },
  REROLL: { zh: '重绘', en: 'Reroll' },
  INPAINT: { zh: '局部重绘', en: 'Inpaint' },
  ZOOM: { zh: '变焦', en: 'Zoom' },
  CUSTOM_ZOOM: { zh: '自定义变焦', en: 'Custom zoom' },
  MODAL: { zh: '窗口处理', en: 'Modal' },
  SWAP_FACE: { zh: '换脸', en: 'Face swap' },
};
/** The upstream's answer to the submission. */
const CODES: Record<string, EnumValue> = {
  1: { labelKey: { zh: '已提交', en: 'Submitted' }, color: 'green' },
  21: { labelKey: { zh: '等待中', en: 'Waiting' }, color: 'lime' },
  22: { labelKey: { zh: '重复提交', en: 'Duplicate' }, color: 'orange' },
  0: { labelKey: { zh: '未提交', en: 'Not submitted' }, color: 'default' },
};
const STATUS: Record<string, EnumValue> = {
  SUCCESS: { labelKey: { zh: '成功', en: 'Success' }, color: 'green' },
  NOT_START: { labelKey: { zh: '未启动', en: 'Not started' }, color: 'default' },
  SUBMITTED: { labelKey: { zh: '队列中', en: 'Queued' }, color: 'yellow' },
  IN_PROGRESS: { labelKey: { zh: '执行中', en: 'Running' }, color: 'blue' },
  FAILURE: { labelKey: { zh: '失败', en: 'Failed' }, color: 'red' },
  MODAL: { labelKey: { zh: '窗口等待', en: 'Waiting for input' }, color: 'purple' },
};

export const midjourneyResource = defineResource({
  name: 'midjourney',
  labelKey: { zh: '绘图日志', en: 'Drawing log' },
  icon: 'picture',
  api: '/api/mj/self/',
  adminApi: '/api/mj/',
  routes: { list: '/midjourney' },
  minRole: 1,
  search: {
    fields: [
      { field: 'channel_id', kind: 'number', placeholderKey: { zh: '渠道 ID', en: 'Channel ID' }, width: 120, minRole: ADMIN },
      { field: 'mj_id', kind: 'text', placeholderKey: { zh: '任务 ID', en: 'Task ID' }, width: 200 },
      { field: 'start_timestamp', kind: 'datetime', placeholderKey: { zh: '起始时间', en: 'From' }, defaultTime: { base: 'now', offsetSeconds: -30 * DAY }, width: 190 },
      { field: 'end_timestamp', kind: 'datetime', placeholderKey: { zh: '结束时间', en: 'To' }, defaultTime: { base: 'now', offsetSeconds: 3600 }, width: 190 },
    ],
  },
  columns: [
    { field: 'submit_time', titleKey: { zh: '提交时间', en: 'Submitted' }, renderer: 'timestamp', unit: 'ms', hideable: false },
    { field: 'finish_time', titleKey: { zh: '结束时间', en: 'Finished' }, renderer: 'timestamp', unit: 'ms' },
    { field: 'spent', titleKey: { zh: '花费时间', en: 'Time spent' }, renderer: 'duration', startField: 'submit_time', endField: 'finish_time', unit: 'ms', redAbove: 60 },
    { field: 'channel_id', titleKey: { zh: '渠道', en: 'Channel' }, renderer: 'id-tag', minRole: ADMIN },
    {
      field: 'action',
      titleKey: { zh: '类型', en: 'Type' },
      renderer: 'enum',
      values: Object.fromEntries(Object.entries(ACTIONS).map(([action, label]) => [action, { labelKey: label, color: 'blue' }])),
      unknown: { labelKey: 'common.unknown' },
    },
    { field: 'mj_id', titleKey: { zh: '任务 ID', en: 'Task ID' }, copyable: true },
    { field: 'code', titleKey: { zh: '提交结果', en: 'Submit result' }, renderer: 'enum', values: CODES, unknown: { labelKey: 'common.unknown' }, minRole: ADMIN },
    { field: 'status', titleKey: { zh: '任务状态', en: 'Status' }, renderer: 'enum', values: STATUS, unknown: { labelKey: 'common.unknown' } },
    { field: 'progress', titleKey: { zh: '进度', en: 'Progress' }, renderer: 'progress', shape: 'line' },
    { field: 'image_url', titleKey: { zh: '结果图片', en: 'Image' }, renderer: 'image' },
    { field: 'prompt', titleKey: { zh: 'Prompt', en: 'Prompt' }, renderer: 'json-dialog', dialog: 'text', emptyKey: 'common.none' },
    { field: 'prompt_en', titleKey: { zh: 'PromptEn', en: 'Prompt (English)' }, renderer: 'json-dialog', dialog: 'text', emptyKey: 'common.none', defaultHidden: true },
    { field: 'fail_reason', titleKey: { zh: '失败原因', en: 'Failure reason' }, renderer: 'json-dialog', dialog: 'text', emptyKey: 'common.none' },
  ],
});
