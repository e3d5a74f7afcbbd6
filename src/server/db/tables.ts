/**
 * Row types of every table, with the table and column names of the reference
 * implementation so that an existing one-api/new-api database can be opened in place.
 *
 * Booleans are stored as booleans on PostgreSQL and MySQL and as 0/1 on SQLite; read them
 * through `asBool`. Timestamps are unix seconds unless a comment says otherwise.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A boolean column as it comes back from any of the three databases. */
export type DbBool = boolean | number;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** bcrypt hash; empty for accounts that only sign in through a third party. */
  password: string;
  display_name: Generated<string>;
  role: Generated<number>;
  status: Generated<number>;
  email: Generated<string>;
  github_id: Generated<string>;
  oidc_id: Generated<string>;
  wechat_id: Generated<string>;
  telegram_id: Generated<string>;
  linux_do_id: Generated<string>;
  access_token: string | null;
  quota: Generated<number>;
  used_quota: Generated<number>;
  request_count: Generated<number>;
  group: Generated<string>;
  aff_code: string | null;
  aff_count: Generated<number>;
  aff_quota: Generated<number>;
  /** JSON name aff_history_quota. */
  aff_history: Generated<number>;
  inviter_id: Generated<number>;
  /** Soft delete marker; a database timestamp. */
  deleted_at: Date | string | null;
  /** JSON text of the user's notification settings. */
  setting: Generated<string>;
}

export interface OptionsTable {
  key: string;
  value: string;
}

export interface SetupsTable {
  id: Generated<number>;
  version: string;
  initialized_at: number;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  /** 48 characters, shown to users with an sk- prefix. */
  key: string;
  status: Generated<number>;
  name: Generated<string>;
  created_time: Generated<number>;
  accessed_time: Generated<number>;
  expired_time: Generated<number>;
  remain_quota: Generated<number>;
  unlimited_quota: Generated<DbBool>;
  model_limits_enabled: Generated<DbBool>;
  model_limits: Generated<string>;
  allow_ips: Generated<string>;
  used_quota: Generated<number>;
  group: Generated<string>;
  deleted_at: Date | string | null;
}

export interface ChannelsTable {
  id: Generated<number>;
  type: Generated<number>;
  key: string;
  /** The reference's ORM name for the field; the API calls it `openai_organization`. */
  open_ai_organization: string | null;
  test_model: string | null;
  status: Generated<number>;
  name: Generated<string>;
  weight: Generated<number>;
  created_time: Generated<number>;
  test_time: Generated<number>;
  /** Milliseconds. */
  response_time: Generated<number>;
  base_url: Generated<string>;
  other: Generated<string>;
  balance: Generated<number>;
  balance_updated_time: Generated<number>;
  models: Generated<string>;
  group: Generated<string>;
  used_quota: Generated<number>;
  model_mapping: string | null;
  status_code_mapping: string | null;
  priority: Generated<number>;
  auto_ban: Generated<number>;
  other_info: Generated<string>;
  tag: string | null;
  setting: string | null;
  param_override: string | null;
  max_input_tokens: Generated<number>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: DbBool;
  priority: Generated<number>;
  weight: Generated<number>;
  tag: string | null;
}

export interface RedemptionsTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: Generated<number>;
  name: Generated<string>;
  quota: Generated<number>;
  created_time: Generated<number>;
  redeemed_time: Generated<number>;
  used_user_id: Generated<number>;
  deleted_at: Date | string | null;
}

export interface LogsTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
  type: number;
  content: Generated<string>;
  username: Generated<string>;
  token_name: Generated<string>;
  model_name: Generated<string>;
  quota: Generated<number>;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  /** Seconds. */
  use_time: Generated<number>;
  is_stream: Generated<DbBool>;
  channel_id: Generated<number>;
  token_id: Generated<number>;
  group: Generated<string>;
  /** JSON text. */
  other: Generated<string>;
}

export interface TopUpsTable {
  id: Generated<number>;
  user_id: number;
  amount: number;
  money: number;
  trade_no: string;
  create_time: number;
  status: string;
}

export interface MidjourneysTable {
  id: Generated<number>;
  code: Generated<number>;
  user_id: number;
  action: Generated<string>;
  mj_id: Generated<string>;
  prompt: Generated<string>;
  prompt_en: Generated<string>;
  description: Generated<string>;
  state: Generated<string>;
  /** Milliseconds. */
  submit_time: Generated<number>;
  start_time: Generated<number>;
  finish_time: Generated<number>;
  image_url: Generated<string>;
  status: Generated<string>;
  progress: Generated<string>;
  fail_reason: Generated<string>;
  channel_id: Generated<number>;
  quota: Generated<number>;
  buttons: Generated<string>;
  properties: Generated<string>;
  /** The token that paid (0: unknown, rows of the reference). */
  token_id: Generated<number>;
  /** Where the task's money is: '' (reference rows), held, charged, released, refunded. */
  billing: Generated<string>;
}

export interface TasksTable {
  id: Generated<number>;
  created_at: Generated<number>;
  updated_at: Generated<number>;
  task_id: Generated<string>;
  platform: Generated<string>;
  user_id: number;
  channel_id: Generated<number>;
  quota: Generated<number>;
  action: Generated<string>;
  status: Generated<string>;
  fail_reason: Generated<string>;
  /** Seconds. */
  submit_time: Generated<number>;
  start_time: Generated<number>;
  finish_time: Generated<number>;
  progress: Generated<string>;
  properties: Generated<string>;
  data: Generated<string>;
  /** The token that paid (0: unknown, rows of the reference). */
  token_id: Generated<number>;
  /** Where the task's money is: '' (reference rows), held, charged, released, refunded. */
  billing: Generated<string>;
}

export interface QuotaDataTable {
  id: Generated<number>;
  user_id: number;
  username: Generated<string>;
  model_name: Generated<string>;
  /** Start of the hour bucket, unix seconds. */
  created_at: number;
  token_used: Generated<number>;
  count: Generated<number>;
  quota: Generated<number>;
}

/** Open quota reservations of the relay (see migration 2026-11-21-002-relay). */
export interface QuotaReservationsTable {
  id: string;
  node: string;
  instance: string;
  user_id: number;
  token_id: number;
  amount: number;
  /** Unix seconds. */
  created_at: number;
}

/** How far each relay process's numbered settlements were written (migration 2026-11-25-009). */
export interface LedgerCheckpointsTable {
  /** The process start (Ledger.instance). */
  instance: string;
  node: string;
  /** Every settlement number up to this one is written. */
  applied_low: number;
  /** Numbers above applied_low that are written too, comma separated. */
  applied_above: string;
  /** Unix seconds. */
  updated_at: number;
}

/** Console sessions (see migration 2026-11-24-007-sessions). */
export interface SessionsTable {
  /** SHA-256 (hex) of the random key the cookie carries; the key itself is never stored. */
  id: string;
  user_id: number;
  /** Unix seconds. */
  created_at: number;
  /** Unix seconds; moved forward while the session is used (sliding expiry). */
  expires_at: number;
}

/** Stored Responses-API answers (see migration 2026-11-25-008-responses). */
export interface ResponsesTable {
  /** The response id the client got (`resp_…`, ours or the upstream's). */
  id: string;
  /** Only this token may read, delete or continue it. */
  token_id: number;
  user_id: number;
  /** 0: converted and stored here (`data`); else the channel that stores it upstream. */
  channel_id: Generated<number>;
  model: Generated<string>;
  /** JSON `{input, output, response}` when stored here; null for an upstream's. */
  data: string | null;
  /** Unix seconds. */
  created_at: number;
  /** Unix seconds. */
  expires_at: number;
}

/**
 * Rows and quota of the logs per hour and type, kept by triggers on logs (SQLite and
 * PostgreSQL; see migration 2026-11-21-004-log-hour-totals). Read only.
 */
export interface LogHourTotalsTable {
  /** `created_at - created_at % 3600` of the logs counted. */
  hour: number;
  type: number;
  n: number;
  quota: number;
}

/** Administrative changes (see migration 2026-11-26-011-audit-log). */
export interface AuditLogsTable {
  id: Generated<number>;
  /** Unix seconds. */
  created_at: number;
  user_id: number;
  username: string;
  ip: string;
  /** option, channel, token, user or redemption. */
  kind: string;
  action: string;
  /** The option key, or the ids or tag the change touched. */
  target: string;
  /** JSON `{before, after}` of the changed fields, secrets masked. */
  changes: string | null;
}

export interface Database {
  users: UsersTable;
  options: OptionsTable;
  setups: SetupsTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  log_hour_totals: LogHourTotalsTable;
  top_ups: TopUpsTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  quota_data: QuotaDataTable;
  quota_reservations: QuotaReservationsTable;
  ledger_checkpoints: LedgerCheckpointsTable;
  sessions: SessionsTable;
  responses: ResponsesTable;
  audit_logs: AuditLogsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type LogRow = Selectable<LogsTable>;
export type NewLog = Insertable<LogsTable>;

/** Reads a boolean column whatever the database returned (true/false, 1/0). */
export function asBool(value: DbBool | null | undefined): boolean {
  return value === true || value === 1;
}
