import { describe, expect, it } from 'vitest';
import { logBillingDetail } from '../../resources/logs-billing';
import type { DetailItem } from '../../src/shared/resources/lists';

const format = { quota: (q: number) => `$${(q / 500000).toFixed(6)}` };
const byLabel = (items: DetailItem[]) => Object.fromEntries(items.map((i) => [i.key, i.value]));

const consume = {
  type: 2,
  model_name: 'gpt-4o',
  prompt_tokens: 1200,
  completion_tokens: 30,
  quota: 3563,
  use_time: 3,
  is_stream: true,
  other: JSON.stringify({
    model_ratio: 1.25,
    group_ratio: 1.5,
    completion_ratio: 4,
    cache_tokens: 1000,
    cache_ratio: 0.5,
    model_price: -1,
    frt: 850,
    is_model_mapped: true,
    upstream_model_name: 'gpt-4o-2024-08-06',
    admin_info: { use_channel: ['3', '7'] },
    request_id: 'req-1',
  }),
};

describe('usage log billing breakdown', () => {
  it('lays out ratios, tokens, the formula, timing and the channels tried', () => {
    const d = byLabel(logBillingDetail(consume, format));
    expect(d).toMatchObject({
      cost: '$0.007126',
      model: 'gpt-4o',
      upstream_model: 'gpt-4o-2024-08-06',
      model_ratio: '1.25',
      completion_ratio: '4',
      group_ratio: '1.5',
      prompt_tokens: '1,200',
      completion_tokens: '30',
      cache_tokens: '1,000 × 0.5',
      formula: '(1,200 − 1,000 + 1,000 × 0.5 + 30 × 4) × 1.25 × 1.5 = 3,563 → $0.007126',
      first_token: '0.85 s',
      total_time: '3 s',
      channels_tried: '3 → 7',
      request_id: 'req-1',
    });
    expect(d.model_price).toBeUndefined();
  });

  it('shows a fixed price instead of token ratios', () => {
    const other = JSON.stringify({ model_price: 0.04, group_ratio: 1, model_ratio: 0, completion_ratio: 1 });
    const d = byLabel(logBillingDetail({ ...consume, quota: 20000, other }, format));
    expect(d.model_price).toBe('$0.04');
    expect(d.formula).toBe('$0.04 × 1 = $0.040000');
    expect(d.model_ratio).toBeUndefined();
    expect(d.upstream_model).toBeUndefined();
    expect(d.channels_tried).toBeUndefined();
  });

  it('leaves out the first token of a non-streamed call and survives a broken other', () => {
    const d = byLabel(logBillingDetail({ ...consume, is_stream: false, other: '{not json' }, format));
    expect(d.first_token).toBeUndefined();
    expect(d.formula).toBe('(1,200 + 30 × 1) × 1 × 1 = 3,563 → $0.007126');
    expect(d.model_ratio).toBe('-');
  });
});
