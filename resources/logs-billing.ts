/**
 * The billing breakdown of one consume log, for the usage log's expanded row: what was
 * charged and why (ratios or fixed price, token counts, the formula with its numbers),
 * which model answered, how long it took and which channels were tried. Everything is read
 * from the row and its `other` JSON; nothing is recomputed on a different basis.
 */
import type { DetailItem, DetailFormat } from '../src/shared/resources/lists';
import type { Bilingual } from '../src/shared/resources/label';

type Row = Record<string, unknown>;

/** The name of each line, in both languages. */
export const BILLING_LABELS = {
  cost: { zh: '消耗', en: 'Cost' },
  model: { zh: '模型', en: 'Model' },
  upstream_model: { zh: '实际上游模型', en: 'Upstream model' },
  model_ratio: { zh: '模型倍率', en: 'Model ratio' },
  model_price: { zh: '固定价格（每次）', en: 'Fixed price (per call)' },
  completion_ratio: { zh: '补全倍率', en: 'Completion ratio' },
  group_ratio: { zh: '分组倍率', en: 'Group ratio' },
  prompt_tokens: { zh: '提示 tokens', en: 'Prompt tokens' },
  completion_tokens: { zh: '补全 tokens', en: 'Completion tokens' },
  cache_tokens: { zh: '缓存 tokens × 缓存倍率', en: 'Cached tokens × cache ratio' },
  cache_creation_tokens: { zh: '缓存创建 tokens × 倍率', en: 'Cache-write tokens × ratio' },
  audio_tokens: { zh: '音频输入 / 输出 tokens', en: 'Audio input / output tokens' },
  reasoning_effort: { zh: '推理强度', en: 'Reasoning effort' },
  formula: { zh: '计费过程', en: 'Billing' },
  first_token: { zh: '首字时间', en: 'First token' },
  total_time: { zh: '总用时', en: 'Total time' },
  channels_tried: { zh: '重试渠道（按顺序）', en: 'Channels tried (in order)' },
  request_id: { zh: '请求 ID', en: 'Request ID' },
} satisfies Record<string, Bilingual>;

function otherOf(row: Row): Record<string, unknown> {
  if (typeof row.other !== 'string' || !row.other) return {};
  try {
    const parsed: unknown = JSON.parse(row.other);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The weighted-token formula with the log's own numbers, as the gateway settles it. */
function tokenFormula(row: Row, other: Record<string, unknown>, format: DetailFormat): string {
  const prompt = num(row.prompt_tokens) ?? 0;
  const completion = num(row.completion_tokens) ?? 0;
  const cached = num(other.cache_tokens) ?? 0;
  const creation = num(other.cache_creation_tokens) ?? 0;
  const parts = [cached > 0 ? `${count(prompt)} − ${count(cached)} + ${count(cached)} × ${num(other.cache_ratio) ?? 1}` : count(prompt)];
  if (creation > 0) parts.push(`${count(creation)} × ${num(other.cache_creation_ratio) ?? 1}`);
  parts.push(`${count(completion)} × ${num(other.completion_ratio) ?? 1}`);
  const quota = num(row.quota) ?? 0;
  return `(${parts.join(' + ')}) × ${num(other.model_ratio) ?? 1} × ${num(other.group_ratio) ?? 1} = ${count(quota)} → ${format.quota(quota)}`;
}

export function logBillingDetail(row: Row, format: DetailFormat): DetailItem[] {
  const other = otherOf(row);
  const items: DetailItem[] = [];
  const add = (key: keyof typeof BILLING_LABELS, value: string | undefined) => value !== undefined && items.push({ key, label: BILLING_LABELS[key], value });
  const price = num(other.model_price);
  const fixed = price !== undefined && price >= 0;

  add('cost', format.quota(num(row.quota) ?? 0));
  add('model', String(row.model_name ?? ''));
  if (other.is_model_mapped === true && typeof other.upstream_model_name === 'string') add('upstream_model', other.upstream_model_name);
  if (fixed) {
    add('model_price', `$${price}`);
  } else {
    add('model_ratio', String(num(other.model_ratio) ?? '-'));
    add('completion_ratio', String(num(other.completion_ratio) ?? '-'));
  }
  add('group_ratio', String(num(other.group_ratio) ?? '-'));
  add('prompt_tokens', count(num(row.prompt_tokens) ?? 0));
  add('completion_tokens', count(num(row.completion_tokens) ?? 0));
  const cached = num(other.cache_tokens);
  if (cached) add('cache_tokens', `${count(cached)} × ${num(other.cache_ratio) ?? 1}`);
  const creation = num(other.cache_creation_tokens);
  if (creation) add('cache_creation_tokens', `${count(creation)} × ${num(other.cache_creation_ratio) ?? 1}`);
  if (other.audio === true) {
    add('audio_tokens', `${count(num(other.audio_input) ?? 0)} / ${count(num(other.audio_output) ?? 0)} (× ${num(other.audio_ratio) ?? 1}, × ${num(other.audio_completion_ratio) ?? 1})`);
  }
  if (typeof other.reasoning_effort === 'string') add('reasoning_effort', other.reasoning_effort);
  // Audio models price text and audio apart; their formula is the audio line above.
  if (fixed) add('formula', `$${price} × ${num(other.group_ratio) ?? 1} = ${format.quota(num(row.quota) ?? 0)}`);
  else if (other.audio !== true) add('formula', tokenFormula(row, other, format));
  const frt = num(other.frt);
  if (row.is_stream === true && frt !== undefined && frt > 0) add('first_token', `${(frt / 1000).toFixed(2)} s`);
  add('total_time', `${num(row.use_time) ?? 0} s`);
  const adminInfo = other.admin_info as { use_channel?: unknown } | undefined;
  if (adminInfo && Array.isArray(adminInfo.use_channel) && adminInfo.use_channel.length) {
    add('channels_tried', adminInfo.use_channel.map(String).join(' → '));
  }
  if (typeof other.request_id === 'string') add('request_id', other.request_id);
  return items;
}
