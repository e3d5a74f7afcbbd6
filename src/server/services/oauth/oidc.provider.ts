/**
 * A generic OpenID Connect provider: the endpoints come from the `oidc.*` options (the
 * console fills them from the well-known document). The code is exchanged with the client
 * credentials in the form body; `redirect_uri` must equal the one the console sent to the
 * authorization endpoint, `<ServerAddress>/oauth/oidc`.
 */
import { AppError } from '../../errors';
import type { AppContext } from '../../context';
import { callProvider, textField } from './provider.http';
import type { CodeProvider } from './oauth.types';

const UNREACHABLE = '无法连接至 OIDC 服务器，请稍后重试！';

/** The public origin; the reference's local default stands in while ServerAddress is unset. */
function serverAddress(ctx: AppContext): string {
  return ctx.options.get('ServerAddress').replace(/\/+$/, '') || `http://localhost:${ctx.config.port}`;
}

export const oidcProvider: CodeProvider = {
  id: 'oidc',
  column: 'oidc_id',
  disabledMessage: '管理员未开启通过 OIDC 登录以及注册',
  alreadyBoundMessage: '该 OIDC 账户已被绑定',
  reportsQueryErrors: false,
  enabled: (options) => options.bool('oidc.enabled'),

  async exchange(ctx, { code }) {
    const form = new URLSearchParams({
      client_id: ctx.options.get('oidc.client_id'),
      client_secret: ctx.options.get('oidc.client_secret'),
      code,
      grant_type: 'authorization_code',
      redirect_uri: `${serverAddress(ctx)}/oauth/oidc`,
    });
    const tokenReply = await callProvider(
      ctx.options.get('oidc.token_endpoint'),
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() },
      UNREACHABLE,
    );
    const accessToken = textField(tokenReply.body, 'access_token');
    if (!accessToken) throw new AppError('OIDC 获取 Token 失败，请检查设置！');

    const info = await callProvider(ctx.options.get('oidc.user_info_endpoint'), { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }, UNREACHABLE);
    if (info.status !== 200) throw new AppError('OIDC 获取用户信息失败！请检查设置！');
    const sub = textField(info.body, 'sub');
    const email = textField(info.body, 'email');
    if (!sub || !email) throw new AppError('OIDC 获取用户信息为空！请检查设置！');
    return {
      id: sub,
      username: textField(info.body, 'preferred_username') || undefined,
      displayName: textField(info.body, 'name') || 'OIDC User',
      email,
    };
  },
};
