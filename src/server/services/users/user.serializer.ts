/**
 * The user JSON shape of every reply (the reference's keys). The password hash never
 * leaves the server; the access token only in the owner's own record.
 */
import type { UserRow } from '../../db/tables';
import { toRfc3339 } from '../../db/timestamps';

export interface UserJson {
  id: number;
  username: string;
  password: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  oidc_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  verification_code: string;
  access_token: string | null;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  DeletedAt: string | null;
  setting: string;
}

export function serializeUser(row: UserRow, opts: { withAccessToken: boolean }): UserJson {
  return {
    id: row.id,
    username: row.username,
    password: '',
    display_name: row.display_name,
    role: row.role,
    status: row.status,
    email: row.email,
    github_id: row.github_id,
    oidc_id: row.oidc_id,
    wechat_id: row.wechat_id,
    telegram_id: row.telegram_id,
    linux_do_id: row.linux_do_id,
    verification_code: '',
    access_token: opts.withAccessToken ? row.access_token : null,
    quota: Number(row.quota),
    used_quota: Number(row.used_quota),
    request_count: Number(row.request_count),
    group: row.group,
    aff_code: row.aff_code ?? '',
    aff_count: row.aff_count,
    aff_quota: Number(row.aff_quota),
    aff_history_quota: Number(row.aff_history),
    inviter_id: row.inviter_id,
    DeletedAt: toRfc3339(row.deleted_at),
    setting: row.setting ?? '',
  };
}

/** The login reply: only the six fields the reference fills, the rest zero values. */
export function serializeLogin(row: UserRow): UserJson {
  const blank = serializeUser({ ...row, access_token: null }, { withAccessToken: false });
  return {
    ...blank,
    email: '',
    github_id: '',
    oidc_id: '',
    wechat_id: '',
    telegram_id: '',
    linux_do_id: '',
    quota: 0,
    used_quota: 0,
    request_count: 0,
    aff_code: '',
    aff_count: 0,
    aff_quota: 0,
    aff_history_quota: 0,
    inviter_id: 0,
    setting: '',
  };
}
