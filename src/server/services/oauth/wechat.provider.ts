/**
 * WeChat through the self-hosted WeChat helper server: the code the user got from the
 * official account is checked at `<WeChatServerAddress>/api/wechat/user?code=`, which
 * answers `{success, message, data}` with the user's id in `data`. The server token goes
 * raw in `Authorization` (no Bearer), as the helper expects.
 */
import { AppError } from '../../errors';
import { boolField, callProvider, textField } from './provider.http';
import type { CodeProvider } from './oauth.types';

const UNREACHABLE = '无法连接至微信服务器，请稍后重试！';

export const wechatProvider: CodeProvider = {
  id: 'wechat',
  column: 'wechat_id',
  disabledMessage: '管理员未开启通过微信登录以及注册',
  alreadyBoundMessage: '该微信账号已被绑定',
  reportsQueryErrors: false,
  enabled: (options) => options.bool('WeChatAuthEnabled'),

  async exchange(ctx, { code }) {
    const address = ctx.options.get('WeChatServerAddress').replace(/\/+$/, '');
    const reply = await callProvider(
      `${address}/api/wechat/user?code=${encodeURIComponent(code)}`,
      { headers: { authorization: ctx.options.get('WeChatServerToken'), accept: 'application/json' } },
      UNREACHABLE,
    );
    if (reply.body === undefined) throw new AppError(UNREACHABLE);
    if (!boolField(reply.body, 'success')) throw new AppError(textField(reply.body, 'message') || '验证码错误或已过期');
    const wechatId = textField(reply.body, 'data');
    if (!wechatId) throw new AppError('验证码错误或已过期');
    return { id: wechatId, displayName: 'WeChat User' };
  },
};
