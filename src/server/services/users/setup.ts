/**
 * First start: with no user at all, create `root` / `123456` (role 100) so `npm start` on a
 * bare machine gives a usable console. The console warns while the default password is in use.
 */
import bcrypt from 'bcryptjs';
import type { AppContext } from '../../context';
import { ROLE_ROOT } from '../../../shared/roles';
import { countUsers, insertUser } from './user.repository';
import { nowSeconds } from '../../../shared/time';

export const DEFAULT_ROOT_USERNAME = 'root';
export const DEFAULT_ROOT_PASSWORD = '123456';
export const BCRYPT_COST = 10;

export async function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, BCRYPT_COST);
}

/** An empty stored hash never matches (accounts made through a third-party login). */
export async function checkPassword(plain: string, hash: string): Promise<boolean> {
  if (!hash || !plain) return false;
  return bcrypt.compare(plain, hash);
}

export async function ensureRootAccount(ctx: AppContext): Promise<void> {
  if ((await countUsers(ctx.db)) > 0) {
    await markInitialised(ctx);
    return;
  }
  await insertUser(ctx.db, {
    username: DEFAULT_ROOT_USERNAME,
    password: await hashPassword(DEFAULT_ROOT_PASSWORD),
    display_name: 'Root User',
    role: ROLE_ROOT,
    status: 1,
    quota: 100_000_000,
    access_token: null,
    aff_code: null,
    deleted_at: null,
  });
  await markInitialised(ctx);
}

async function markInitialised(ctx: AppContext): Promise<void> {
  const row = await ctx.db.selectFrom('setups').select('id').executeTakeFirst();
  if (!row) await ctx.db.insertInto('setups').values({ version: ctx.config.version, initialized_at: nowSeconds() }).execute();
}
