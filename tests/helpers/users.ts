/**
 * Test accounts: made through the real account creation (createAccount), raised to a role
 * by a direct update when needed, and signed in with a client that sends New-Api-User.
 */
import { createAccount } from '../../src/server/services/users/user.service';
import { ROLE_COMMON } from '../../src/shared/roles';
import type { ApiClient, TestServer } from './server';

export interface TestUser {
  id: number;
  username: string;
  password: string;
  client: ApiClient;
}

/** Creates an account with `role` (1 common, 10 admin, 100 root) and signs it in. */
export async function createUser(s: TestServer, username: string, role: number = ROLE_COMMON, password = 'password123'): Promise<TestUser> {
  const { ctx } = s.app;
  const id = await createAccount(ctx, { username, password });
  if (role !== ROLE_COMMON) await ctx.db.updateTable('users').set({ role }).where('id', '=', id).execute();
  return { id, username, password, client: await s.login(username, password) };
}

/** Inserts accounts without a password (no bcrypt cost) for list and search tests. */
export async function insertPlainUsers(s: TestServer, rows: Array<{ username: string; display_name?: string; email?: string; group?: string }>): Promise<number[]> {
  const ids: number[] = [];
  for (const row of rows) {
    await s.app.ctx.db
      .insertInto('users')
      .values({ password: '', access_token: null, aff_code: null, deleted_at: null, ...row })
      .execute();
    const found = await s.app.ctx.db.selectFrom('users').select('id').where('username', '=', row.username).executeTakeFirstOrThrow();
    ids.push(found.id);
  }
  return ids;
}
