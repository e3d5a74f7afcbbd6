/**
 * Writes log rows of the account and admin features (top-up 1, manage 3, system 4).
 * Consume logs (2) of the relay go through the relay's batched writer instead.
 */
import type { Executor } from '../../db/executor';
import type { NewLog } from '../../db/tables';
import { LOG_TYPE } from '../../../shared/roles';
import { nowSeconds } from '../../../shared/time';

export interface LogInput {
  userId: number;
  type: (typeof LOG_TYPE)[keyof typeof LOG_TYPE];
  content: string;
  /** Looked up from the user id when omitted. */
  username?: string;
  other?: Record<string, unknown>;
}

export async function writeLog(db: Executor, input: LogInput): Promise<void> {
  let username = input.username;
  if (username === undefined) {
    const row = await db.selectFrom('users').select('username').where('id', '=', input.userId).executeTakeFirst();
    username = row?.username ?? '';
  }
  const log: NewLog = {
    user_id: input.userId,
    created_at: nowSeconds(),
    type: input.type,
    content: input.content,
    username,
    other: input.other ? JSON.stringify(input.other) : '',
  };
  await db.insertInto('logs').values(log).execute();
}
