/**
 * Password reset by mail (docs/accounts.md#password-reset): a single-use link valid 10 minutes, then a new
 * random password set on every active account with that email and shown once. The accounts'
 * console sessions end with their old password.
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { AppError, MSG } from '../../errors';
import { sendMail } from '../mail/mailer';
import { hashPassword } from '../users/setup';
import { deleteSessionsByEmail } from '../users/session.repository';
import { resetMail } from './account.mails';
import { emailInUse, setPasswordByEmail } from './account.repository';
import { checkEmailShape } from './email-verification.service';

export const RESET_TOKEN_TTL_SECONDS = 10 * 60;
export const EMAIL_NOT_REGISTERED = '该邮箱地址未注册';
export const BAD_RESET_LINK = '重置链接非法或已过期';

/**
 * Where links in mails point. Never derived from the request's Host header, which a caller
 * controls (it would let anyone mail a victim a reset link to their own site); the
 * reference's default address stands in while ServerAddress is unset.
 */
export function publicAddress(ctx: AppContext): string {
  return ctx.options.get('ServerAddress').replace(/\/+$/, '') || `http://localhost:${ctx.config.port}`;
}

export async function requestPasswordReset(ctx: AppContext, rawEmail: string): Promise<void> {
  const email = rawEmail.trim();
  checkEmailShape(email);
  if (!(await emailInUse(ctx.db, email))) throw new AppError(EMAIL_NOT_REGISTERED);
  const token = randomBytes(16).toString('hex');
  await ctx.codes.put('reset', email, token, RESET_TOKEN_TTL_SECONDS);
  const link = `${publicAddress(ctx)}/user/reset?email=${encodeURIComponent(email)}&token=${token}`;
  await sendMail(ctx.options, resetMail({ to: email, systemName: ctx.options.get('SystemName'), link, validMinutes: RESET_TOKEN_TTL_SECONDS / 60 }));
}

/** Uses the token once; answers the new plain password (12 lowercase hex characters). */
export async function resetPassword(ctx: AppContext, rawEmail: string, rawToken: string): Promise<string> {
  const email = rawEmail.trim();
  const token = rawToken.trim();
  if (!email || !token) throw new AppError(MSG.invalidParams);
  if (!(await ctx.codes.consume('reset', email, token))) throw new AppError(BAD_RESET_LINK);
  const password = randomBytes(6).toString('hex');
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await setPasswordByEmail(trx, email, hash);
    await deleteSessionsByEmail(trx, email);
  });
  return password;
}
