/**
 * The token JSON of every reply: the reference's keys. `key` is the stored 48 characters
 * without the `sk-` prefix, as the reference sends it; the console adds the prefix when it
 * shows or copies a key (and search accepts either form).
 */
import { asBool, type TokenRow } from '../../db/tables';
import { toRfc3339 } from '../../db/timestamps';

export interface TokenJson {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  used_quota: number;
  group: string;
  DeletedAt: string | null;
}

/** `status` overrides the stored one when a due transition was just applied. */
export function serializeToken(row: TokenRow, status = row.status): TokenJson {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    status,
    name: row.name,
    created_time: Number(row.created_time),
    accessed_time: Number(row.accessed_time),
    expired_time: Number(row.expired_time),
    remain_quota: Number(row.remain_quota),
    unlimited_quota: asBool(row.unlimited_quota),
    model_limits_enabled: asBool(row.model_limits_enabled),
    model_limits: row.model_limits,
    allow_ips: row.allow_ips ?? '',
    used_quota: Number(row.used_quota),
    group: row.group,
    DeletedAt: toRfc3339(row.deleted_at),
  };
}
