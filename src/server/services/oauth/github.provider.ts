/**
 * GitHub: the code is exchanged with the app's client id and secret (JSON body), then the
 * profile is read from `/user`. The login name is the stored id, as in the reference, so a
 * renamed GitHub account no longer matches its binding.
 */
import { AppError } from '../../errors';
import { callProvider, textField } from './provider.http';
import type { CodeProvider } from './oauth.types';

const UNREACHABLE = '无法连接至 GitHub 服务器，请稍后重试！';
const INVALID_REPLY = '返回值非法，用户字段为空，请稍后重试！';

export const githubProvider: CodeProvider = {
  id: 'github',
  column: 'github_id',
  disabledMessage: '管理员未开启通过 GitHub 登录以及注册',
  alreadyBoundMessage: '该 GitHub 账户已被绑定',
  reportsQueryErrors: false,
  enabled: (options) => options.bool('GitHubOAuthEnabled'),

  async exchange(ctx, { code }) {
    const tokenReply = await callProvider(
      `${ctx.config.githubOAuthUrl}/login/oauth/access_token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          client_id: ctx.options.get('GitHubClientId'),
          client_secret: ctx.options.get('GitHubClientSecret'),
          code,
        }),
      },
      UNREACHABLE,
    );
    // GitHub answers a refused code with HTTP 200 and an `error` object instead of a token.
    const accessToken = textField(tokenReply.body, 'access_token');
    if (!accessToken) throw new AppError(INVALID_REPLY);

    const profile = await callProvider(
      `${ctx.config.githubApiUrl}/user`,
      // GitHub's API refuses requests without a User-Agent.
      { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'Switchyard' } },
      UNREACHABLE,
    );
    const login = profile.status === 200 ? textField(profile.body, 'login') : '';
    if (!login) throw new AppError(INVALID_REPLY);
    return {
      id: login,
      displayName: textField(profile.body, 'name') || 'GitHub User',
      email: textField(profile.body, 'email'),
    };
  },
};
