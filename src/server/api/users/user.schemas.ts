/**
 * Body checkers of /api/user (plumbing/body-checker.ts). Unknown fields are dropped
 * (plumbing/request-bodies.ts). The two edit calls receive whole user records from the
 * console (docs/users.md#admin-endpoints), so they accept every key of the user JSON shape in any form and
 * ignore the ones that call does not write.
 */
import { schemaBodyChecker } from '../../plumbing/body-checker';
import type { AdminCreateInput, AdminUpdateInput } from '../../services/users/user-admin.service';
import type { SelfUpdateInput } from '../../services/users/user-self.service';
import type { UserSettingInput } from '../../services/users/user-setting.service';
import { MANAGE_ACTIONS, type ManageAction } from '../../services/users/user.rules';

const string = { type: 'string' } as const;
/** Read-only keys of the user record: accepted in any form, never written. */
const ignored = {} as const;
/**
 * Quota travels as an integer number of quota units; keep it exact in a double. A balance
 * is never negative (settlement never takes more than is left), so an administrator cannot
 * set one either.
 */
const quota = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
/** A user id: the column is an integer, which PostgreSQL will not compare with larger numbers. */
const userId = { type: 'integer', minimum: -2147483648, maximum: 2147483647 } as const;

const READ_ONLY_USER_KEYS = [
  'status',
  'github_id',
  'oidc_id',
  'wechat_id',
  'telegram_id',
  'linux_do_id',
  'verification_code',
  'access_token',
  'used_quota',
  'request_count',
  'aff_code',
  'aff_count',
  'aff_quota',
  'aff_history_quota',
  'inviter_id',
  'DeletedAt',
  'setting',
] as const;

const readOnlyUserProperties = Object.fromEntries(READ_ONLY_USER_KEYS.map((key) => [key, ignored]));

export const createUserBody = schemaBodyChecker<AdminCreateInput>({
  type: 'object',
  additionalProperties: false,
  properties: { username: string, display_name: string, password: string, role: { type: 'integer' } },
} as const);

export const updateUserBody = schemaBodyChecker<AdminUpdateInput>({
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    ...readOnlyUserProperties,
    id: userId,
    username: string,
    display_name: string,
    password: string,
    group: string,
    quota,
    role: { type: 'integer' },
    email: string,
  },
} as const);

/**
 * The caller's own record: only username, display name and password are written;
 * `original_password` (later consoles) is checked against the current password.
 */
export const updateSelfBody = schemaBodyChecker<SelfUpdateInput>({
  type: 'object',
  additionalProperties: false,
  properties: {
    ...readOnlyUserProperties,
    id: ignored,
    group: ignored,
    quota: ignored,
    role: ignored,
    email: ignored,
    username: string,
    display_name: string,
    password: string,
    original_password: string,
  },
} as const);

export const manageUserBody = schemaBodyChecker<{ id: number; action: ManageAction }>({
  type: 'object',
  additionalProperties: false,
  required: ['id', 'action'],
  properties: { id: userId, action: { type: 'string', enum: [...MANAGE_ACTIONS] } },
} as const);

export const affTransferBody = schemaBodyChecker<{ quota: number }>({
  type: 'object',
  additionalProperties: false,
  required: ['quota'],
  properties: { quota: { ...quota, minimum: 1 } },
} as const);

export const userSettingBody = schemaBodyChecker<UserSettingInput>({
  type: 'object',
  additionalProperties: false,
  properties: {
    notify_type: string,
    quota_warning_threshold: { type: 'number' },
    webhook_url: { type: 'string', maxLength: 2048 },
    webhook_secret: { type: 'string', maxLength: 512 },
    notification_email: { type: 'string', maxLength: 254 },
    accept_unset_model_ratio_model: { type: 'boolean' },
  },
} as const);
