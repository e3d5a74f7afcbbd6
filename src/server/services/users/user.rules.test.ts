import { describe, expect, it } from 'vitest';
import { ROLE_ADMIN, ROLE_COMMON, ROLE_ROOT } from '../../../shared/roles';
import { canHandle, canHardDelete, MANAGE_ACTIONS, planManage, ROLE_MSG } from './user.rules';

describe('user role rules', () => {
  it('lets callers handle only lower levels, and root also roots', () => {
    expect(canHandle(ROLE_ADMIN, ROLE_COMMON)).toBe(true);
    expect(canHandle(ROLE_ADMIN, ROLE_ADMIN)).toBe(false);
    expect(canHandle(ROLE_ADMIN, ROLE_ROOT)).toBe(false);
    expect(canHandle(ROLE_ROOT, ROLE_ROOT)).toBe(true);
    expect(canHardDelete(ROLE_ROOT, ROLE_ROOT)).toBe(false);
    expect(canHardDelete(ROLE_ROOT, ROLE_ADMIN)).toBe(true);
  });

  it('follows the manage table for every action and target level', () => {
    const outcome = (action: (typeof MANAGE_ACTIONS)[number], caller: number, target: number) => {
      try {
        return planManage(action, caller, { role: target });
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(outcome('disable', ROLE_ROOT, ROLE_ROOT)).toBe(ROLE_MSG.cannotDisableRoot);
    expect(outcome('delete', ROLE_ROOT, ROLE_ROOT)).toBe(ROLE_MSG.cannotDeleteRoot);
    expect(outcome('demote', ROLE_ROOT, ROLE_ROOT)).toBe(ROLE_MSG.cannotDemoteRoot);
    expect(outcome('promote', ROLE_ADMIN, ROLE_COMMON)).toBe(ROLE_MSG.adminCannotPromote);
    expect(outcome('promote', ROLE_ROOT, ROLE_ADMIN)).toBe(ROLE_MSG.alreadyAdmin);
    expect(outcome('demote', ROLE_ROOT, ROLE_COMMON)).toBe(ROLE_MSG.alreadyCommon);
    expect(outcome('promote', ROLE_ROOT, ROLE_COMMON)).toEqual({ role: ROLE_ADMIN });
    expect(outcome('demote', ROLE_ROOT, ROLE_ADMIN)).toEqual({ role: ROLE_COMMON });
    expect(outcome('disable', ROLE_ADMIN, ROLE_COMMON)).toEqual({ status: 2 });
    expect(outcome('enable', ROLE_ADMIN, ROLE_COMMON)).toEqual({ status: 1 });
    expect(outcome('delete', ROLE_ADMIN, ROLE_COMMON)).toBe('delete');
  });
});
