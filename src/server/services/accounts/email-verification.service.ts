/**
 * Email verification codes (docs/accounts.md#email-verification): who may receive one, sending it, checking it
 * at registration, and binding an email to a signed-in account.
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { AppError, MSG } from '../../errors';
import { sendMail } from '../mail/mailer';
import { verificationMail } from './account.mails';
import { emailInUse, setUserEmail } from './account.repository';

/** The validity (3 minutes, docs/accounts.md#email-verification); the mail prints the same number. */
export const VERIFICATION_CODE_TTL_SECONDS = 3 * 60;

export const WRONG_CODE = '验证码错误或已过期';
/** Our words (docs/messages.md#accounts-and-settings, email bind) for an empty address or code. */
export const EMAIL_MISSING = '请输入邮箱！';
export const CODE_MISSING = '请输入邮箱验证码！';
export const EMAIL_TAKEN = '邮箱地址已被占用';
export const DOMAIN_NOT_ALLOWED = "The administrator has enabled the email domain name whitelist, and your email address is not allowed due to special symbols or it's not in the whitelist.";
export const ALIAS_NOT_ALLOWED = '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。';

// Something@domain.tld without spaces. The local part may hold an `@` (a quoted local part is
// legal), which the second check then refuses with its own message, as the reference does.
const EMAIL_SHAPE = /^\S+@[^\s@]+\.[^\s@]+$/;

/** Refuses text that is not an email address: `无效的参数`, or `无效的邮箱地址` for extra `@`s. */
export function checkEmailShape(email: string): void {
  if (!EMAIL_SHAPE.test(email)) throw new AppError(MSG.invalidParams);
  if (email.split('@').length !== 2) throw new AppError('无效的邮箱地址');
}

/** The whitelist option: domains separated by commas (or lines), compared case-insensitively. */
function whitelistedDomains(ctx: AppContext): string[] {
  return ctx.options
    .get('EmailDomainWhitelist')
    .split(/[,\n]/)
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
}

/** The rules of the settings page on which addresses may receive a code. */
function checkEmailAllowed(ctx: AppContext, email: string): void {
  const [local = '', domain = ''] = email.split('@');
  if (ctx.options.bool('EmailDomainRestrictionEnabled') && !whitelistedDomains(ctx).includes(domain.toLowerCase())) {
    throw new AppError(DOMAIN_NOT_ALLOWED);
  }
  // `a+x@` and `a.x@` reach the same mailbox at many providers: one person, many accounts.
  if (ctx.options.bool('EmailAliasRestrictionEnabled') && /[+.]/.test(local)) throw new AppError(ALIAS_NOT_ALLOWED);
}

/** Checks the address, stores a fresh 6-character code and mails it. */
export async function sendVerificationCode(ctx: AppContext, rawEmail: string): Promise<void> {
  const email = rawEmail.trim();
  if (!email) throw new AppError(EMAIL_MISSING);
  checkEmailShape(email);
  checkEmailAllowed(ctx, email);
  if (await emailInUse(ctx.db, email)) throw new AppError(EMAIL_TAKEN);
  const code = randomBytes(3).toString('hex');
  await ctx.codes.put('verify', email, code, VERIFICATION_CODE_TTL_SECONDS);
  await sendMail(ctx.options, verificationMail({ to: email, systemName: ctx.options.get('SystemName'), code, validMinutes: VERIFICATION_CODE_TTL_SECONDS / 60 }));
}

/** Refuses unless `code` is the live code of `email`. The code stays valid until it expires. */
export async function checkVerificationCode(ctx: AppContext, email: string, code: string): Promise<void> {
  if (!(await ctx.codes.matches('verify', email, code.trim()))) throw new AppError(WRONG_CODE);
}

/** Sets the email of a signed-in user once the code sent to it is confirmed. */
export async function bindEmail(ctx: AppContext, userId: number, rawEmail: string, code: string): Promise<void> {
  const email = rawEmail.trim();
  if (!email) throw new AppError(EMAIL_MISSING);
  if (!code.trim()) throw new AppError(CODE_MISSING);
  await checkVerificationCode(ctx, email, code);
  // Another account may have taken the address since the code was sent.
  if (await emailInUse(ctx.db, email, userId)) throw new AppError(EMAIL_TAKEN);
  await setUserEmail(ctx.db, userId, email);
}
