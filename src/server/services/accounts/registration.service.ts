/**
 * Self-service registration with a password (docs/accounts.md#registration), checks in the reference's
 * order so each refusal carries the same message; nothing is written before all pass.
 */
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { createAccount, USERNAME_TAKEN } from '../users/user.service';
import { randomAlphanumeric } from '../../plumbing/random';
import { charCount, PASSWORD_MIN, validateUserFields } from '../users/user.validation';
import { emailInUse, findInviterId, insertUnlimitedToken, usernameExists } from './account.repository';
import { checkVerificationCode } from './email-verification.service';
import { nowSeconds } from '../../../shared/time';

export const REGISTER_CLOSED = '管理员关闭了新用户注册';
export const PASSWORD_REGISTER_CLOSED = '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册';
export const VERIFICATION_REQUIRED = '管理员开启了邮箱验证，请输入邮箱地址和验证码';
/** Our words (docs/messages.md#accounts-and-settings) for a password under 8 characters at registration. */
export const PASSWORD_TOO_SHORT = '密码长度不得小于 8 位！';

/** Budget of the token GENERATE_DEFAULT_TOKEN creates (unlimited anyway; the reference's value). */
const DEFAULT_TOKEN_QUOTA = 500_000;

export interface Registration {
  username: string;
  password: string;
  email: string;
  verificationCode: string;
  /** The inviter's code; unknown codes are ignored. */
  affCode: string;
}

/** Creates the account; answers its id. Does not sign the user in. */
export async function register(ctx: AppContext, input: Registration): Promise<number> {
  if (!ctx.options.bool('RegisterEnabled')) throw new AppError(REGISTER_CLOSED);
  if (!ctx.options.bool('PasswordRegisterEnabled')) throw new AppError(PASSWORD_REGISTER_CLOSED);

  // Login trims the name it is given, so a name with outer spaces could never sign in.
  const username = input.username.trim();
  const email = input.email.trim();
  if (charCount(input.password) < PASSWORD_MIN) throw new AppError(PASSWORD_TOO_SHORT);
  validateUserFields({ username, password: input.password, email });

  // The email is only kept when it was proven by a code.
  const verifyEmail = ctx.options.bool('EmailVerificationEnabled');
  if (verifyEmail) {
    if (!email || !input.verificationCode.trim()) throw new AppError(VERIFICATION_REQUIRED);
    await checkVerificationCode(ctx, email, input.verificationCode);
  }
  const keptEmail = verifyEmail ? email : '';
  if ((await usernameExists(ctx.db, username)) || (await emailInUse(ctx.db, keptEmail))) throw new AppError(USERNAME_TAKEN);

  const inviterId = await findInviterId(ctx.db, input.affCode.trim());
  const id = await createAccount(ctx, {
    username,
    password: input.password,
    displayName: username,
    ...(keptEmail ? { email: keptEmail } : {}),
    ...(inviterId ? { inviterId } : {}),
  });
  if (ctx.config.generateDefaultToken) await createDefaultToken(ctx, id, username);
  return id;
}

async function createDefaultToken(ctx: AppContext, userId: number, username: string): Promise<void> {
  await insertUnlimitedToken(ctx.db, {
    userId,
    name: `${username}的初始令牌`,
    key: randomAlphanumeric(48),
    remainQuota: DEFAULT_TOKEN_QUOTA,
    now: nowSeconds(),
  });
}
