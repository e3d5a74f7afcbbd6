/**
 * Who may do what to which account (docs/users.md#administration-rules). Pure
 * functions, so the rule table reads in one place and is testable without a database.
 */
import { AppError } from '../../errors';
import { ROLE_ADMIN, ROLE_COMMON, ROLE_ROOT, USER_STATUS_DISABLED, USER_STATUS_ENABLED } from '../../../shared/roles';

/** The reference's messages, verbatim (they are the console dictionary's keys). */
export const ROLE_MSG = {
  viewHigher: '无权获取同级或更高等级用户的信息',
  updateHigher: '无权更新同权限等级或更高权限等级的用户信息',
  raiseToOwnLevel: '无权将其他用户权限等级提升到大于等于自己的权限等级',
  deleteHigher: '无权删除同权限等级或更高权限等级的用户',
  createHigher: '无法创建权限大于等于自己的用户',
  adminCannotPromote: '普通管理员用户无法提升其他用户为管理员',
  alreadyAdmin: '该用户已经是管理员',
  alreadyCommon: '该用户已经是普通用户',
  cannotDisableRoot: '无法禁用超级管理员用户',
  cannotDeleteRoot: '无法删除超级管理员用户',
  cannotDemoteRoot: '无法降级超级管理员用户',
  cannotDeleteSelfRoot: '不能删除超级管理员账户',
  userMissing: '用户不存在',
} as const;

/**
 * Whether `callerRole` may view, update or manage an account of `targetRole`: only accounts
 * below one's own level, except that root may also handle other roots (the manage rules
 * still keep every root enabled, undeleted and root).
 */
export function canHandle(callerRole: number, targetRole: number): boolean {
  return callerRole >= ROLE_ROOT || callerRole > targetRole;
}

/** Hard deletion has no root exemption: nobody removes an account of their own level. */
export function canHardDelete(callerRole: number, targetRole: number): boolean {
  return callerRole > targetRole;
}

export const MANAGE_ACTIONS = ['promote', 'demote', 'disable', 'enable', 'delete'] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];

/** What a manage action does to the target: new role/status, or a soft delete. */
export type ManageEffect = { role?: number; status?: number } | 'delete';

/** The manage rules of docs/users.md#administration-rules; throws the refusal message or answers the effect. */
export function planManage(action: ManageAction, callerRole: number, target: { role: number }): ManageEffect {
  switch (action) {
    case 'disable':
      if (target.role >= ROLE_ROOT) throw new AppError(ROLE_MSG.cannotDisableRoot);
      return { status: USER_STATUS_DISABLED };
    case 'enable':
      return { status: USER_STATUS_ENABLED };
    case 'delete':
      if (target.role >= ROLE_ROOT) throw new AppError(ROLE_MSG.cannotDeleteRoot);
      return 'delete';
    case 'promote':
      if (callerRole < ROLE_ROOT) throw new AppError(ROLE_MSG.adminCannotPromote);
      if (target.role >= ROLE_ADMIN) throw new AppError(ROLE_MSG.alreadyAdmin);
      return { role: ROLE_ADMIN };
    case 'demote':
      if (target.role >= ROLE_ROOT) throw new AppError(ROLE_MSG.cannotDemoteRoot);
      if (target.role <= ROLE_COMMON) throw new AppError(ROLE_MSG.alreadyCommon);
      return { role: ROLE_COMMON };
  }
}
