/**
 * What the console receives for a channel (never the key) and for a tag in tag mode.
 *
 * Tag mode rows: a tag aggregate is `{ id: "tag:<tag>", is_tag: true, tag, name: tag,
 * children: [channels] }` plus summary fields — status 1 when any child is enabled (else
 * 2), priority and weight the highest of the children (tag edit sets them all alike),
 * type the first child's, models and group the unions of the children's lists, used_quota
 * and balance summed, response_time the mean of tested children, created_time the oldest,
 * test_time the newest. The id is a string so it never collides with a channel id in the
 * console's row keys. Untagged channels appear as plain channel rows beside the tags.
 */
import { CHANNEL_STATUS } from '../../../shared/channel-types';
import type { PublicChannelRow } from './channel.repository';
import { splitNames } from './channel.input';

export interface PublicChannel {
  id: number;
  type: number;
  name: string;
  status: number;
  priority: number;
  weight: number;
  base_url: string;
  other: string;
  models: string;
  group: string;
  tag: string;
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  param_override: string;
  other_info: string;
  auto_ban: number;
  test_model: string;
  openai_organization: string;
  max_input_tokens: number;
  balance: number;
  balance_updated_time: number;
  used_quota: number;
  response_time: number;
  test_time: number;
  created_time: number;
}

export interface TagAggregate extends Omit<
  PublicChannel,
  | 'id'
  | 'other'
  | 'other_info'
  | 'model_mapping'
  | 'status_code_mapping'
  | 'setting'
  | 'param_override'
  | 'base_url'
  | 'auto_ban'
  | 'test_model'
  | 'openai_organization'
  | 'max_input_tokens'
  | 'balance_updated_time'
> {
  id: string;
  is_tag: true;
  channel_count: number;
  children: PublicChannel[];
}

export function publicChannel(row: PublicChannelRow): PublicChannel {
  return {
    id: row.id,
    type: Number(row.type),
    name: row.name ?? '',
    status: Number(row.status),
    priority: Number(row.priority),
    weight: Number(row.weight),
    base_url: row.base_url ?? '',
    other: row.other ?? '',
    models: row.models ?? '',
    group: row.group ?? '',
    tag: row.tag ?? '',
    model_mapping: row.model_mapping ?? '',
    status_code_mapping: row.status_code_mapping ?? '',
    setting: row.setting ?? '',
    param_override: row.param_override ?? '',
    other_info: row.other_info ?? '',
    auto_ban: Number(row.auto_ban),
    test_model: row.test_model ?? '',
    openai_organization: row.open_ai_organization ?? '',
    max_input_tokens: Number(row.max_input_tokens ?? 0),
    balance: Number(row.balance ?? 0),
    balance_updated_time: Number(row.balance_updated_time ?? 0),
    used_quota: Number(row.used_quota ?? 0),
    response_time: Number(row.response_time ?? 0),
    test_time: Number(row.test_time ?? 0),
    created_time: Number(row.created_time ?? 0),
  };
}

function union(lists: string[]): string {
  return splitNames(lists.join(',')).join(',');
}

/** The aggregate row of a tag; `children` must be non-empty and in list order. */
export function tagAggregate(tag: string, children: PublicChannel[]): TagAggregate {
  const tested = children.filter((c) => c.response_time > 0);
  return {
    id: `tag:${tag}`,
    is_tag: true,
    tag,
    name: tag,
    type: children[0]!.type,
    status: children.some((c) => c.status === CHANNEL_STATUS.enabled) ? CHANNEL_STATUS.enabled : CHANNEL_STATUS.disabled,
    priority: Math.max(...children.map((c) => c.priority)),
    weight: Math.max(...children.map((c) => c.weight)),
    models: union(children.map((c) => c.models)),
    group: union(children.map((c) => c.group)),
    used_quota: children.reduce((sum, c) => sum + c.used_quota, 0),
    balance: children.reduce((sum, c) => sum + c.balance, 0),
    response_time: tested.length ? Math.round(tested.reduce((sum, c) => sum + c.response_time, 0) / tested.length) : 0,
    created_time: Math.min(...children.map((c) => c.created_time)),
    test_time: Math.max(...children.map((c) => c.test_time)),
    channel_count: children.length,
    children,
  };
}
