/**
 * Redemption codes (administrators): batches of one-time codes worth a fixed quota.
 * Types, lengths and bounds come from schemas/entities/redemption.json; the rules here
 * are the ones that depend on the stored code: edit only while unused, and a used code
 * never changes status again.
 */
import { randomBytes } from 'node:crypto';
import type { Page, PageRequest } from '../../../shared/api/envelope';
import { quotaAmount } from '../../../shared/quota';
import type { AppContext } from '../../context';
import { toPage } from '../../db/query-helpers';
import type { RedemptionRow } from '../../db/tables';
import { AppError, MSG } from '../../errors';
import { quotaDisplay } from '../options/quota-display';
import { findRedemption, insertRedemptions, listRedemptions, softDeleteRedemption, updateRedemptionIf, type NewRedemption, type RedemptionPatch } from './redemption.repository';
import { serializeRedemption, type RedemptionJson } from './redemption.serializer';
import { REDEMPTION_STATUS } from '../../../shared/redemption-status';
import { nowSeconds } from '../../../shared/time';

export interface RedemptionFields {
  name?: string;
  quota?: number;
}

export interface NewRedemptionsInput extends RedemptionFields {
  quota: number;
  /** 1–100; default 1. */
  count?: number;
}

const EDIT_ONLY_UNUSED = '只有未使用的兑换码可以编辑';
const USED_IS_FINAL = '兑换码已被使用，无法修改状态';
const STATUS_CHOICES = '兑换码状态只能设置为未使用或已禁用';

/** 32 lowercase hexadecimal characters from a cryptographic source. */
export function newRedemptionKey(): string {
  return randomBytes(16).toString('hex');
}

/** The trimmed name, or the quota as the console shows it (`$0.20`) when it is empty. */
function nameOrQuota(ctx: AppContext, name: string | undefined, quota: number): string {
  const trimmed = (name ?? '').trim();
  return trimmed || quotaAmount(quota, quotaDisplay(ctx));
}

async function redemptionOrFail(ctx: AppContext, id: number): Promise<RedemptionRow> {
  const row = await findRedemption(ctx.db, id);
  if (!row) throw new AppError(MSG.notFound);
  return row;
}

export async function listRedemptionPage(ctx: AppContext, keyword: string, page: PageRequest): Promise<Page<RedemptionJson>> {
  return toPage(page, await listRedemptions(ctx.db, keyword.trim(), page), serializeRedemption);
}

export async function getRedemption(ctx: AppContext, id: number): Promise<RedemptionJson> {
  return serializeRedemption(await redemptionOrFail(ctx, id));
}

/** Generates `count` codes in one transaction; answers their keys. */
export async function createRedemptions(ctx: AppContext, creatorId: number, input: NewRedemptionsInput): Promise<string[]> {
  const now = nowSeconds();
  const name = nameOrQuota(ctx, input.name, input.quota);
  const rows: NewRedemption[] = Array.from({ length: input.count ?? 1 }, () => ({
    user_id: creatorId,
    key: newRedemptionKey(),
    status: REDEMPTION_STATUS.unused,
    name,
    quota: input.quota,
    created_time: now,
    deleted_at: null,
  }));
  await ctx.db.transaction().execute((trx) => insertRedemptions(trx, rows));
  return rows.map((r) => r.key);
}

/** Changes name and quota, only while the code is unused. */
export async function updateRedemption(ctx: AppContext, id: number, input: RedemptionFields): Promise<RedemptionJson> {
  const current = await redemptionOrFail(ctx, id);
  const patch: RedemptionPatch = {};
  if (input.quota !== undefined) patch.quota = input.quota;
  if (input.name !== undefined) patch.name = nameOrQuota(ctx, input.name, input.quota ?? Number(current.quota));
  if (current.status !== REDEMPTION_STATUS.unused) throw new AppError(EDIT_ONLY_UNUSED);
  if (Object.keys(patch).length > 0 && !(await updateRedemptionIf(ctx.db, id, [REDEMPTION_STATUS.unused], patch))) {
    // Redeemed, disabled or deleted since it was read.
    const now = await findRedemption(ctx.db, id);
    throw new AppError(now ? EDIT_ONLY_UNUSED : MSG.notFound);
  }
  return getRedemption(ctx, id);
}

/** Disables or re-enables an unused code; a used code keeps its status. */
export async function setRedemptionStatus(ctx: AppContext, id: number, status: number): Promise<RedemptionJson> {
  if (status !== REDEMPTION_STATUS.unused && status !== REDEMPTION_STATUS.disabled) {
    throw new AppError(STATUS_CHOICES, 200, { status: STATUS_CHOICES });
  }
  const changeable = [REDEMPTION_STATUS.unused, REDEMPTION_STATUS.disabled];
  if (!(await updateRedemptionIf(ctx.db, id, changeable, { status }))) {
    const current = await findRedemption(ctx.db, id);
    throw new AppError(current ? USED_IS_FINAL : MSG.notFound);
  }
  return getRedemption(ctx, id);
}

export async function deleteRedemption(ctx: AppContext, id: number): Promise<void> {
  if (!(await softDeleteRedemption(ctx.db, id))) throw new AppError(MSG.notFound);
}
