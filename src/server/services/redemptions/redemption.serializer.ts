/** The redemption JSON of every reply (the reference's keys); admins see the code in clear. */
import type { RedemptionRow } from '../../db/tables';
import { toRfc3339 } from '../../db/timestamps';

export interface RedemptionJson {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
  DeletedAt: string | null;
}

export function serializeRedemption(row: RedemptionRow): RedemptionJson {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    status: row.status,
    name: row.name,
    quota: Number(row.quota),
    created_time: Number(row.created_time),
    redeemed_time: Number(row.redeemed_time),
    used_user_id: row.used_user_id,
    DeletedAt: toRfc3339(row.deleted_at),
  };
}
