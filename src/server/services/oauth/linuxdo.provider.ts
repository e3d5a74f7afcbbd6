/**
 * LinuxDO Connect: the code is exchanged with HTTP Basic client credentials; the numeric
 * user id (as text) is the stored id. The reference's messages here are English, and its
 * redirect_uri is the callback's own origin plus `/api/oauth/linuxdo`.
 * No trust-level, active or silenced check (the reference has none; see its Differences).
 */
import { AppError } from '../../errors';
import { callProvider, textField } from './provider.http';
import type { CodeProvider } from './oauth.types';

export const linuxdoProvider: CodeProvider = {
  id: 'linuxdo',
  column: 'linux_do_id',
  disabledMessage: '管理员未开启通过 Linux DO 登录以及注册',
  alreadyBoundMessage: '该 Linux DO 账户已被绑定',
  reportsQueryErrors: true,
  enabled: (options) => options.bool('LinuxDOOAuthEnabled'),

  async exchange(ctx, { code, requestOrigin }) {
    const credentials = `${ctx.options.get('LinuxDOClientId')}:${ctx.options.get('LinuxDOClientSecret')}`;
    const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: `${requestOrigin}/api/oauth/linuxdo` });
    const tokenReply = await callProvider(
      `${ctx.config.linuxdoUrl}/oauth2/token`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
      },
      'failed to connect to Linux DO server',
    );
    const accessToken = textField(tokenReply.body, 'access_token');
    if (!accessToken) {
      const reason = textField(tokenReply.body, 'message') || textField(tokenReply.body, 'error_description') || textField(tokenReply.body, 'error');
      throw new AppError(`failed to get access token: ${reason}`);
    }

    const profile = await callProvider(
      `${ctx.config.linuxdoUrl}/api/user`,
      { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
      'failed to get user info from Linux DO',
    );
    const id = profile.status === 200 ? textField(profile.body, 'id') : '';
    if (!/^[1-9]\d*$/.test(id)) throw new AppError('invalid user info returned');
    return { id, displayName: textField(profile.body, 'name') };
  },
};
