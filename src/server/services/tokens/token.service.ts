/**
 * API tokens of the console: every operation acts on the caller's own tokens only,
 * whatever the caller's role. Another user's token id answers `record not found` and
 * changes nothing, exactly like an id that does not exist. Every write is announced as a
 * token change, so the relay's token cache (on every node) drops the old row at once.
 */
import type { Page, PageRequest } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { asBool, type TokenRow } from '../../db/tables';
import { toPage } from '../../db/query-helpers';
import { AppError, MSG } from '../../errors';
import { announceChange } from '../../plumbing/change-events';
import { randomAlphanumeric } from '../../plumbing/random';
import type { Executor } from '../../db/executor';
import { checkTokenFields, checkTokenName, type TokenFields } from './token.fields';
import { findOwnToken, insertTokens, listOwnTokens, softDeleteOwnToken, updateOwnToken, type NewToken, type TokenFilter } from './token.repository';
import { serializeToken, type TokenJson } from './token.serializer';
import { isExhausted, isExpired, refreshTokenStatus, TOKEN_EXHAUSTED_MESSAGE, TOKEN_EXPIRED_MESSAGE } from './token.status';
import { nowSeconds } from '../../../shared/time';
import { TOKEN_STATUS } from '../../../shared/token-status';

/** The caller as the token rules need it. */
export interface TokenOwner {
  id: number;
  group: string;
}

export const TOKEN_KEY_LENGTH = 48;
/** Additional tokens of one batch get `<name>-<6 random characters>`. */
const BATCH_SUFFIX_LENGTH = 6;

/** Shows a token with its due status applied (see token.status.ts). */
async function present(ctx: AppContext, row: TokenRow, now: number): Promise<TokenJson> {
  const status = await refreshTokenStatus(ctx.db, row, now);
  if (status !== row.status) announceChange(ctx, 'tokens', [row.id]);
  return serializeToken(row, status);
}

async function ownTokenOrFail(db: Executor, owner: TokenOwner, id: number): Promise<TokenRow> {
  const row = await findOwnToken(db, owner.id, id);
  if (!row) throw new AppError(MSG.notFound);
  return row;
}

/** One page of the owner's tokens matching `filter` (empty: all), newest first. */
export async function listTokens(ctx: AppContext, owner: TokenOwner, filter: TokenFilter, page: PageRequest): Promise<Page<TokenJson>> {
  const result = await listOwnTokens(ctx.db, owner.id, filter, page);
  const now = nowSeconds();
  const items = await Promise.all(result.rows.map((row) => present(ctx, row, now)));
  return toPage(page, { rows: items, total: result.total }, (item) => item);
}

/** The search filter from the console's fields: `token` may carry the sk- prefix. */
export function tokenSearchFilter(keyword: string, token: string): TokenFilter {
  return { name: keyword.trim(), key: token.trim().replace(/^sk-/, '') };
}

export async function getToken(ctx: AppContext, owner: TokenOwner, id: number): Promise<TokenJson> {
  return present(ctx, await ownTokenOrFail(ctx.db, owner, id), nowSeconds());
}

export interface NewTokensInput extends TokenFields {
  /** How many tokens to create (1–100); default 1. */
  count?: number;
}

/** The names of a batch: the first as given, the others with a random suffix. */
function batchNames(name: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    if (i === 0) return name;
    const suffix = randomAlphanumeric(BATCH_SUFFIX_LENGTH);
    return name ? `${name}-${suffix}` : suffix;
  });
}

/** Creates `count` tokens in one transaction; answers them with their keys. */
export async function createTokens(ctx: AppContext, owner: TokenOwner, input: NewTokensInput): Promise<TokenJson[]> {
  const now = nowSeconds();
  const fields = checkTokenFields(input, { ctx, userGroup: owner.group, now });
  const names = batchNames(fields.name ?? '', input.count ?? 1);
  for (const name of names) checkTokenName(ctx, name);
  const rows: NewToken[] = names.map((name) => ({
    user_id: owner.id,
    key: randomAlphanumeric(TOKEN_KEY_LENGTH),
    status: TOKEN_STATUS.enabled,
    name,
    created_time: now,
    accessed_time: now,
    expired_time: fields.expired_time ?? -1,
    remain_quota: fields.remain_quota ?? 0,
    unlimited_quota: fields.unlimited_quota ?? false,
    model_limits_enabled: fields.model_limits_enabled ?? false,
    model_limits: fields.model_limits ?? '',
    allow_ips: fields.allow_ips ?? '',
    group: fields.group ?? '',
    deleted_at: null,
  }));
  const created = await ctx.db.transaction().execute((trx) => insertTokens(trx, rows));
  return created.map((row) => serializeToken(row));
}

/** A full edit: the fields present change, the status never does. */
export async function updateToken(ctx: AppContext, owner: TokenOwner, id: number, input: TokenFields): Promise<TokenJson> {
  const current = await ownTokenOrFail(ctx.db, owner, id);
  const now = nowSeconds();
  const patch = checkTokenFields(input, {
    ctx,
    userGroup: owner.group,
    now,
    currentExpiry: Number(current.expired_time),
    currentModelLimits: { enabled: asBool(current.model_limits_enabled), models: current.model_limits ?? '' },
  });
  if (Object.keys(patch).length > 0) {
    if (!(await updateOwnToken(ctx.db, owner.id, id, patch))) throw new AppError(MSG.notFound);
    announceChange(ctx, 'tokens', [id]);
  }
  return getToken(ctx, owner, id);
}

/**
 * The owner switches a token between enabled and disabled. Enabling is refused while the
 * token is expired or, limited, has no quota left (whatever status is stored).
 */
export async function setTokenStatus(ctx: AppContext, owner: TokenOwner, id: number, status: number): Promise<TokenJson> {
  if (status !== TOKEN_STATUS.enabled && status !== TOKEN_STATUS.disabled) {
    throw new AppError('令牌状态只能在启用和禁用之间切换', 200, { status: '令牌状态只能在启用和禁用之间切换' });
  }
  const current = await ownTokenOrFail(ctx.db, owner, id);
  if (status === TOKEN_STATUS.enabled) {
    if (isExpired(current, nowSeconds())) throw new AppError(TOKEN_EXPIRED_MESSAGE);
    if (isExhausted(current)) throw new AppError(TOKEN_EXHAUSTED_MESSAGE);
  }
  if (!(await updateOwnToken(ctx.db, owner.id, id, { status }))) throw new AppError(MSG.notFound);
  announceChange(ctx, 'tokens', [id]);
  return getToken(ctx, owner, id);
}

export async function deleteToken(ctx: AppContext, owner: TokenOwner, id: number): Promise<void> {
  if (!(await softDeleteOwnToken(ctx.db, owner.id, id))) throw new AppError(MSG.notFound);
  announceChange(ctx, 'tokens', [id]);
}
