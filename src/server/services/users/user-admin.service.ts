/**
 * User administration (docs/users.md#admin-endpoints): list, search, read, create, edit, manage and hard
 * delete, each behind the role rules of user.rules.ts. Admin replies never carry a user's
 * system access token. A password set by an admin, a ban and a deletion end the target's
 * console sessions (issue #12): they do not come back when the account is enabled again.
 */
import type { AppContext } from '../../context';
import { AppError, MSG } from '../../errors';
import { announceChange } from '../../plumbing/change-events';
import type { UserRow, UserUpdate } from '../../db/tables';
import type { Page, PageRequest } from '../../../shared/api/envelope';
import { logQuota } from '../../../shared/quota';
import { LOG_TYPE, ROLE_ROOT, USER_STATUS_DISABLED } from '../../../shared/roles';
import { writeLog } from '../logs/log.writer';
import { hashPassword } from './setup';
import { deleteUserSessions } from './session.repository';
import {
  canLockRows,
  findUserById,
  findUserByIdForUpdate,
  findUserByIdUnscoped,
  hardDeleteUser,
  isUsernameTaken,
  listUsers,
  softDeleteUser,
  updateUser,
  updateUserAndQuota,
  type UserListFilter,
} from './user.repository';
import { canHandle, canHardDelete, planManage, ROLE_MSG, type ManageAction } from './user.rules';
import { serializeUser, type UserJson } from './user.serializer';
import { createAccount, isUniqueViolation, USERNAME_TAKEN } from './user.service';
import { quotaDisplay } from '../options/quota-display';
import { validateUserFields } from './user.validation';

/** The authenticated admin acting. */
export interface Caller {
  id: number;
  role: number;
  /** The admin's own console session: kept when they set their own password here. */
  sessionId?: string;
}

function forAdmin(row: UserRow): UserJson {
  return serializeUser(row, { withAccessToken: false });
}

/** Users (deleted ones included) matching the filter, newest first. */
export async function listUsersPage(ctx: AppContext, filter: UserListFilter, page: PageRequest): Promise<Page<UserJson>> {
  const { rows, total } = await listUsers(ctx.db, filter, { offset: page.offset, limit: page.pageSize });
  return { items: rows.map(forAdmin), total, page: page.page, page_size: page.pageSize };
}

export async function getUserForAdmin(ctx: AppContext, caller: Caller, id: number): Promise<UserJson> {
  const target = await findUserById(ctx.db, id);
  if (!target) throw new AppError(MSG.notFound);
  if (!canHandle(caller.role, target.role)) throw new AppError(ROLE_MSG.viewHigher);
  return forAdmin(target);
}

export interface AdminCreateInput {
  username?: string;
  display_name?: string;
  password?: string;
  role?: number;
}

/** Creates a common user through the shared Insert (new-user quota, invite code). */
export async function createUserByAdmin(ctx: AppContext, caller: Caller, input: AdminCreateInput): Promise<UserJson> {
  const username = (input.username ?? '').trim();
  const password = input.password ?? '';
  if (!username || !password) throw new AppError('用户名和密码不能为空！');
  const displayName = (input.display_name ?? '').trim();
  validateUserFields({ username, password, display_name: displayName });
  // The role is only a claim to refuse: accounts made here are always common users.
  if (input.role !== undefined && input.role >= caller.role) throw new AppError(ROLE_MSG.createHigher);
  const id = await createAccount(ctx, { username, password, displayName: displayName || username });
  return forAdmin((await findUserById(ctx.db, id))!);
}

export interface AdminUpdateInput {
  id: number;
  username?: string;
  display_name?: string;
  password?: string;
  group?: string;
  quota?: number;
  role?: number;
  email?: string;
}

/**
 * Writes username, display name, group and password when given non-empty, and the quota
 * when given. The quota is moved as a delta against the row read inside the transaction,
 * so a gateway charge landing meanwhile is kept, and the change is logged once.
 */
export async function updateUserByAdmin(ctx: AppContext, caller: Caller, input: AdminUpdateInput): Promise<UserJson> {
  if (!input.id) throw new AppError(MSG.invalidParams);
  const username = input.username?.trim() || undefined;
  const displayName = input.display_name?.trim() || undefined;
  const group = input.group?.trim() || undefined;
  const password = input.password || undefined;
  validateUserFields({ username, display_name: displayName, password, group, email: input.email });
  if (caller.role < ROLE_ROOT && input.role !== undefined && input.role >= caller.role) throw new AppError(ROLE_MSG.raiseToOwnLevel);
  const passwordHash = password ? await hashPassword(password) : undefined;
  const display = quotaDisplay(ctx);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const target = await findUserByIdForUpdate(trx, input.id, canLockRows(ctx.dialect));
      if (!target) throw new AppError(MSG.notFound);
      if (!canHandle(caller.role, target.role)) throw new AppError(ROLE_MSG.updateHigher);
      if (username && username !== target.username && (await isUsernameTaken(trx, username, target.id))) throw new AppError(USERNAME_TAKEN);
      const patch: UserUpdate = {};
      if (username) patch.username = username;
      if (displayName) patch.display_name = displayName;
      if (group) patch.group = group;
      if (passwordHash) patch.password = passwordHash;
      const oldQuota = Number(target.quota);
      const delta = input.quota === undefined ? 0 : input.quota - oldQuota;
      await updateUserAndQuota(trx, target.id, patch, delta);
      if (passwordHash) await deleteUserSessions(trx, target.id, target.id === caller.id ? caller.sessionId : undefined);
      if (delta !== 0) {
        await writeLog(trx, {
          userId: target.id,
          username: username ?? target.username,
          type: LOG_TYPE.manage,
          content: `管理员将用户额度从 ${logQuota(oldQuota, display)}修改为 ${logQuota(oldQuota + delta, display)}`,
        });
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(USERNAME_TAKEN);
    throw err;
  }
  announceChange(ctx, 'users', [input.id]);
  return forAdmin((await findUserById(ctx.db, input.id))!);
}

/** Promote, demote, disable, enable or (soft) delete; answers the resulting role and status. */
export async function manageUser(ctx: AppContext, caller: Caller, id: number, action: ManageAction): Promise<{ role: number; status: number }> {
  const target = await findUserByIdUnscoped(ctx.db, id);
  if (!target) throw new AppError(ROLE_MSG.userMissing);
  if (!canHandle(caller.role, target.role)) throw new AppError(ROLE_MSG.updateHigher);
  const effect = planManage(action, caller.role, target);
  // A deleted account keeps its last state: the action is accepted but changes nothing.
  await ctx.db.transaction().execute(async (trx) => {
    if (effect === 'delete') await softDeleteUser(trx, id);
    else await updateUser(trx, id, effect);
    // A ban or a deletion ends every session: enabling (or restoring) the account later does not revive them.
    if (effect === 'delete' || effect.status === USER_STATUS_DISABLED) await deleteUserSessions(trx, id);
  });
  announceChange(ctx, 'users', [id]);
  const after = (await findUserByIdUnscoped(ctx.db, id)) ?? target;
  return { role: after.role, status: after.status };
}

/** Removes the row for good (not used by the console). */
export async function hardDeleteUserByAdmin(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const target = await findUserByIdUnscoped(ctx.db, id);
  if (!target) throw new AppError(MSG.notFound);
  if (!canHardDelete(caller.role, target.role)) throw new AppError(ROLE_MSG.deleteHigher);
  await ctx.db.transaction().execute(async (trx) => {
    await hardDeleteUser(trx, id);
    await deleteUserSessions(trx, id);
  });
  announceChange(ctx, 'users', [id]);
}
