/**
 * What a signed-in user does to their own account (docs/users.md#own-account): edit the profile,
 * delete the account, and get a fresh system access token. A new password ends the user's
 * other console sessions; deleting the account ends all of them.
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { AppError, MSG } from '../../errors';
import { announceChange } from '../../plumbing/change-events';
import type { UserRow, UserUpdate } from '../../db/tables';
import { ROLE_ROOT } from '../../../shared/roles';
import { checkPassword, hashPassword } from './setup';
import { deleteUserSessions } from './session.repository';
import { isUsernameTaken, softDeleteUser, updateUser } from './user.repository';
import { ROLE_MSG } from './user.rules';
import { isUniqueViolation, USERNAME_TAKEN } from './user.service';
import { validateUserFields } from './user.validation';

export interface SelfUpdateInput {
  username?: string;
  display_name?: string;
  password?: string;
  /** The current password, sent by later consoles with a new one: then it must match. */
  original_password?: string;
}

/**
 * Whether `original` proves the caller knows the current password. An account without one
 * (made through a third-party login) proves it with an empty value.
 */
async function knowsCurrentPassword(user: UserRow, original: string): Promise<boolean> {
  if (!user.password) return original === '';
  return checkPassword(original, user.password);
}

/**
 * Writes the non-empty fields; a new username must not be anyone else's, deleted or not. A
 * new password is checked against `original_password` when that is sent (the console's call
 * sends only `password`), and ends every other session of the user; `keepSessionId` (the
 * caller's own session) stays.
 */
export async function updateSelf(ctx: AppContext, user: UserRow, input: SelfUpdateInput, keepSessionId?: string): Promise<void> {
  const username = input.username?.trim() || undefined;
  const displayName = input.display_name?.trim() || undefined;
  const password = input.password || undefined;
  validateUserFields({ username, display_name: displayName, password });
  if (password && input.original_password !== undefined && !(await knowsCurrentPassword(user, input.original_password))) {
    throw new AppError(MSG.wrongPassword);
  }
  const patch: UserUpdate = {};
  if (username && username !== user.username) {
    if (await isUsernameTaken(ctx.db, username, user.id)) throw new AppError(USERNAME_TAKEN);
    patch.username = username;
  }
  if (displayName) patch.display_name = displayName;
  if (password) patch.password = await hashPassword(password);
  if (Object.keys(patch).length === 0) return;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await updateUser(trx, user.id, patch);
      if (patch.password) await deleteUserSessions(trx, user.id, keepSessionId);
    });
    announceChange(ctx, 'users', [user.id]);
  } catch (err) {
    // Two renames racing for one name: the unique index has the last word.
    if (isUniqueViolation(err)) throw new AppError(USERNAME_TAKEN);
    throw err;
  }
}

/** Soft-deletes the caller's account; root accounts cannot remove themselves. */
export async function deleteSelf(ctx: AppContext, user: UserRow): Promise<void> {
  if (user.role >= ROLE_ROOT) throw new AppError(ROLE_MSG.cannotDeleteSelfRoot);
  await ctx.db.transaction().execute(async (trx) => {
    await softDeleteUser(trx, user.id);
    await deleteUserSessions(trx, user.id);
  });
  announceChange(ctx, 'users', [user.id]);
}

/** 24 random bytes as base64url: 32 URL-safe characters, the width of the reference's column. */
export function newAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Replaces the caller's system access token with a fresh one and answers it. */
export async function regenerateAccessToken(ctx: AppContext, userId: number): Promise<string> {
  const token = newAccessToken();
  try {
    await updateUser(ctx.db, userId, { access_token: token });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('请重试，系统生成的 UUID 竟然重复了！');
    throw err;
  }
  return token;
}
