/**
 * What a signed-in user does to their own account (reference §1.4, §2.8): edit the profile,
 * delete the account, and get a fresh system access token.
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { announceChange } from '../../plumbing/change-events';
import type { UserRow, UserUpdate } from '../../db/tables';
import { ROLE_ROOT } from '../../../shared/roles';
import { hashPassword } from './setup';
import { isUsernameTaken, softDeleteUser, updateUser } from './user.repository';
import { ROLE_MSG } from './user.rules';
import { isUniqueViolation, USERNAME_TAKEN } from './user.service';
import { validateUserFields } from './user.validation';

export interface SelfUpdateInput {
  username?: string;
  display_name?: string;
  password?: string;
}

/** Writes the non-empty fields; a new username must not be anyone else's, deleted or not. */
export async function updateSelf(ctx: AppContext, user: UserRow, input: SelfUpdateInput): Promise<void> {
  const username = input.username?.trim() || undefined;
  const displayName = input.display_name?.trim() || undefined;
  const password = input.password || undefined;
  validateUserFields({ username, display_name: displayName, password });
  const patch: UserUpdate = {};
  if (username && username !== user.username) {
    if (await isUsernameTaken(ctx.db, username, user.id)) throw new AppError(USERNAME_TAKEN);
    patch.username = username;
  }
  if (displayName) patch.display_name = displayName;
  if (password) patch.password = await hashPassword(password);
  if (Object.keys(patch).length === 0) return;
  try {
    await updateUser(ctx.db, user.id, patch);
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
  await softDeleteUser(ctx.db, user.id);
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
