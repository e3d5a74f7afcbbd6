/**
 * Third-party sign-in and binding, one flow for every provider:
 * - sign-in: provider switched on, identity from the provider, then the account bound to it
 *   (a deleted one is refused), or a new account when registration is open;
 * - binding: the identity must not belong to any account yet, then it is stored on the
 *   caller's account.
 * Sessions and replies stay in the route module.
 */
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/tables';
import { AppError, MSG } from '../../errors';
import { USER_STATUS_ENABLED } from '../../../shared/roles';
import { createAccount, type NewAccount } from '../users/user.service';
import { findUserById } from '../users/user.repository';
import { findBoundUser, findInviterId, isExternalIdTaken, isUsernameUsed, maxUserId, setExternalId } from './oauth.repository';
import { telegramBinding, verifyTelegramLogin } from './telegram.login';
import type { Binding, BindingColumn, CodeGrant, CodeProvider, ExternalIdentity } from './oauth.types';
import { nowSeconds } from '../../../shared/time';

/** Where createAccount takes each binding column. */
const ACCOUNT_FIELD: Record<BindingColumn, 'githubId' | 'oidcId' | 'linuxDoId' | 'wechatId' | 'telegramId'> = {
  github_id: 'githubId',
  oidc_id: 'oidcId',
  linux_do_id: 'linuxDoId',
  wechat_id: 'wechatId',
  telegram_id: 'telegramId',
};

/** Limits of the console's user form, so a generated account stays editable. */
const MAX_USERNAME = 12;
const MAX_DISPLAY_NAME = 20;
const MAX_EMAIL = 50;
/** Sign-ups racing for the same generated name: how many times to move on to the next one. */
const SIGN_UP_ATTEMPTS = 4;

/** Only enabled accounts may sign in. */
export function assertActive(user: UserRow): void {
  if (user.status !== USER_STATUS_ENABLED) throw new AppError(MSG.banned);
}

async function identify(ctx: AppContext, provider: CodeProvider, grant: CodeGrant): Promise<ExternalIdentity> {
  if (!provider.enabled(ctx.options)) throw new AppError(provider.disabledMessage);
  if (!grant.code) throw new AppError(MSG.invalidParams);
  return provider.exchange(ctx, grant);
}

/** Signs in with a provider's code, creating the account on first use. */
export async function signInWithCode(ctx: AppContext, provider: CodeProvider, grant: CodeGrant, affCode?: string): Promise<UserRow> {
  const identity = await identify(ctx, provider, grant);
  let user = await findBoundUser(ctx.db, provider.column, identity.id);
  if (!user) {
    if (await isExternalIdTaken(ctx.db, provider.column, identity.id)) throw new AppError('用户已注销');
    if (!ctx.options.bool('RegisterEnabled')) throw new AppError('管理员关闭了新用户注册');
    user = await signUp(ctx, provider, identity, affCode);
  }
  assertActive(user);
  return user;
}

/** Binds a provider's identity to the signed-in account. */
export async function bindWithCode(ctx: AppContext, provider: CodeProvider, userId: number, grant: CodeGrant): Promise<void> {
  const identity = await identify(ctx, provider, grant);
  await bindExternalId(ctx, provider, userId, identity.id);
}

async function bindExternalId(ctx: AppContext, binding: Binding, userId: number, externalId: string): Promise<void> {
  if (await isExternalIdTaken(ctx.db, binding.column, externalId)) throw new AppError(binding.alreadyBoundMessage);
  await setExternalId(ctx.db, userId, binding.column, externalId);
}

/** Signs in with Telegram widget data; only an existing binding is accepted. */
export async function signInWithTelegram(ctx: AppContext, params: Record<string, unknown>): Promise<UserRow> {
  if (!telegramBinding.enabled(ctx.options)) throw new AppError(telegramBinding.disabledMessage);
  const telegramId = verifyTelegramLogin(params, ctx.options.get('TelegramBotToken'), nowSeconds());
  const user = await findBoundUser(ctx.db, telegramBinding.column, telegramId);
  if (!user) throw new AppError('该 Telegram 账户未绑定');
  assertActive(user);
  return user;
}

/** Binds the Telegram account of widget data to the signed-in account. */
export async function bindTelegram(ctx: AppContext, userId: number, params: Record<string, unknown>): Promise<void> {
  if (!telegramBinding.enabled(ctx.options)) throw new AppError(telegramBinding.disabledMessage);
  const telegramId = verifyTelegramLogin(params, ctx.options.get('TelegramBotToken'), nowSeconds());
  await bindExternalId(ctx, telegramBinding, userId, telegramId);
}

/** `<prefix>_<n>` from the highest user id on, skipping names already used (deleted accounts keep theirs). */
async function nextGeneratedUsername(ctx: AppContext, prefix: string): Promise<string> {
  let n = (await maxUserId(ctx.db)) + 1;
  while (await isUsernameUsed(ctx.db, `${prefix}_${n}`)) n++;
  return `${prefix}_${n}`;
}

/** The provider's suggested name when it fits the username rules and is free. */
async function suggestedUsername(ctx: AppContext, identity: ExternalIdentity): Promise<string | undefined> {
  const name = identity.username?.trim();
  if (!name || [...name].length > MAX_USERNAME || (await isUsernameUsed(ctx.db, name))) return undefined;
  return name;
}

async function signUp(ctx: AppContext, provider: CodeProvider, identity: ExternalIdentity, affCode?: string): Promise<UserRow> {
  const inviterId = affCode ? await findInviterId(ctx.db, affCode) : undefined;
  const email = identity.email && identity.email.length <= MAX_EMAIL ? identity.email : '';
  let suggested = await suggestedUsername(ctx, identity);
  for (let attempt = 1; ; attempt++) {
    const username = suggested ?? (await nextGeneratedUsername(ctx, provider.id));
    const account: NewAccount = {
      username,
      password: '',
      displayName: [...identity.displayName].slice(0, MAX_DISPLAY_NAME).join(''),
      email,
      inviterId,
      [ACCOUNT_FIELD[provider.column]]: identity.id,
    };
    let id: number;
    try {
      id = await createAccount(ctx, account);
    } catch (err) {
      // createAccount reports unique violations as AppError: a concurrent sign-up took the
      // name between the check and the insert, so try the next one.
      if (!(err instanceof AppError) || attempt >= SIGN_UP_ATTEMPTS) throw err;
      suggested = undefined;
      continue;
    }
    const user = await findUserById(ctx.db, id);
    if (!user) throw new AppError('用户注册失败或用户ID获取失败');
    return user;
  }
}
