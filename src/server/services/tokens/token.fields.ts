/**
 * The rules of a token's editable fields beyond their record schema (types, lengths and
 * bounds live in schemas/entities/token.json): an expiry in the future, the group among
 * the owner's usable groups, a valid IP allow list, a tidy model list that is not empty
 * while the model limit is on.
 */
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { usableGroups } from '../users/user-groups.service';
import { normaliseAllowIps } from './ip-allow-list';
import type { TokenPatch } from './token.repository';
import { tokenSchema } from './token.schema';

/** The writable fields as a body carries them (already checked against the record schema). */
export interface TokenFields {
  name?: string;
  remain_quota?: number;
  unlimited_quota?: boolean;
  expired_time?: number;
  model_limits_enabled?: boolean;
  model_limits?: string;
  allow_ips?: string;
  group?: string;
}

/** A model limit with no model would lock the token out of every model (the channel rule's words; docs/tokens.md#validation). */
export const TOKEN_MODELS_REQUIRED = '请至少选择一个模型！';

/**
 * Name length in characters (code points), as the record schema counts it, with the schema's
 * limit and message: a body's name passed the schema before trimming, a batch's suffixed
 * names never did.
 */
export function checkTokenName(ctx: AppContext, name: string): void {
  const rule = tokenSchema(ctx.config.schemasDir).name;
  if ([...name].length > rule.max) throw new AppError(rule.tooLong, 200, { name: rule.tooLong });
}

function refuse(field: string, message: string): never {
  throw new AppError(message, 200, { [field]: message });
}

/**
 * -1 (never) or a unix time in the future. An edit may keep an expiry that has passed
 * (`current`), so renaming an expired token does not force a new expiry.
 */
function checkExpiry(expiry: number, now: number, current: number | undefined): void {
  if (expiry === -1 || expiry === current) return;
  if (expiry <= 0) refuse('expired_time', '过期时间格式错误！');
  if (expiry <= now) refuse('expired_time', '过期时间不能早于当前时间');
}

/** Comma list without blanks or repeats. */
function normaliseModels(list: string): string {
  const models = [
    ...new Set(
      list
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  ];
  return models.join(',');
}

/**
 * The model limit on with no model is refused (400, on the models field). Checked only when a
 * body touches the limit, so renaming a token stored that way by another console still works.
 */
function checkModelLimits(patch: TokenPatch, current: FieldContext['currentModelLimits']): void {
  if (patch.model_limits_enabled === undefined && patch.model_limits === undefined) return;
  const enabled = patch.model_limits_enabled ?? current?.enabled ?? false;
  const models = patch.model_limits ?? current?.models ?? '';
  if (enabled && models === '') throw new AppError(TOKEN_MODELS_REQUIRED, 400, { model_limits: TOKEN_MODELS_REQUIRED });
}

export interface FieldContext {
  ctx: AppContext;
  /** The owner's own group (the usable groups depend on it). */
  userGroup: string;
  now: number;
  /** The stored expiry when editing. */
  currentExpiry?: number;
  /** The stored model limit when editing: a body changing one half is checked with the other. */
  currentModelLimits?: { enabled: boolean; models: string };
}

/** Checks the fields present and answers them as they are stored. */
export function checkTokenFields(fields: TokenFields, at: FieldContext): TokenPatch {
  const patch: TokenPatch = {};
  if (fields.name !== undefined) {
    patch.name = fields.name.trim();
    checkTokenName(at.ctx, patch.name);
  }
  if (fields.remain_quota !== undefined) patch.remain_quota = fields.remain_quota;
  if (fields.unlimited_quota !== undefined) patch.unlimited_quota = fields.unlimited_quota;
  if (fields.expired_time !== undefined) {
    checkExpiry(fields.expired_time, at.now, at.currentExpiry);
    patch.expired_time = fields.expired_time;
  }
  if (fields.model_limits_enabled !== undefined) patch.model_limits_enabled = fields.model_limits_enabled;
  if (fields.model_limits !== undefined) patch.model_limits = normaliseModels(fields.model_limits);
  checkModelLimits(patch, at.currentModelLimits);
  if (fields.allow_ips !== undefined) patch.allow_ips = normaliseAllowIps(fields.allow_ips);
  if (fields.group !== undefined) {
    const group = fields.group.trim();
    if (group !== '' && !Object.hasOwn(usableGroups(at.ctx, at.userGroup), group)) {
      refuse('group', `分组 ${group} 不可用，只能选择管理员开放给你的分组`);
    }
    patch.group = group;
  }
  return patch;
}
