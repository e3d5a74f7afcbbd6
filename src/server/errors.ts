/**
 * Business errors. Services throw `AppError`; the /api error handler turns it into the
 * envelope `{success:false, message}` (HTTP 200 unless a status is given), the relay into
 * OpenAI's error shape. Anything else is an internal error and its text never reaches a reply.
 */
export class AppError extends Error {
  constructor(
    message: string,
    /** HTTP status; business failures travel as 200 with success:false. */
    readonly status = 200,
    /** Per-field messages for forms. */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Messages used by more than one module (the reference's dictionary, verbatim). */
export const MSG = {
  invalidParams: '无效的参数',
  invalidInput: '输入不合法 ',
  notFound: 'record not found',
  dbError: '数据库错误，请稍后重试',
  idEmpty: 'id 为空！',
  notLoggedIn: '无权进行此操作，未登录且未提供 access token',
  accessTokenInvalid: '无权进行此操作，access token 无效',
  noUserHeader: '无权进行此操作，未提供 New-Api-User',
  badUserHeader: '无权进行此操作，New-Api-User 格式错误',
  userHeaderMismatch: '无权进行此操作，New-Api-User 与登录用户不匹配',
  forbidden: '无权进行此操作，权限不足',
  userInfoInvalid: '无权进行此操作，用户信息无效',
  banned: '用户已被封禁',
  /** Login failures and a wrong current password alike (no hint which part was wrong). */
  wrongPassword: '用户名或密码错误，或用户已被封禁',
} as const;
