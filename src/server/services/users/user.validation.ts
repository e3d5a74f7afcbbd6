/**
 * Field limits of user accounts (docs/users.md#field-limits), counted in characters, not bytes:
 * username 1–12, password 8–20, display name up to 20, email up to 50. A failure is
 * `输入不合法 ` followed by a short English detail; nothing is written after one.
 */
import { AppError, MSG } from '../../errors';

export const USERNAME_MAX = 12;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const DISPLAY_NAME_MAX = 20;
export const EMAIL_MAX = 50;
/** The width of the `group` column. */
export const GROUP_MAX = 64;

export interface UserFields {
  username?: string;
  password?: string;
  display_name?: string;
  email?: string;
  group?: string;
}

/** Characters as a person counts them (code points, so one CJK character or emoji is one). */
export function charCount(text: string): number {
  return [...text].length;
}

function invalid(detail: string): never {
  throw new AppError(MSG.invalidInput + detail);
}

/**
 * Checks the fields that are present. A username, when given, must have 1–12 characters;
 * an empty password means "unchanged" and is skipped.
 */
export function validateUserFields(fields: UserFields): void {
  if (fields.username !== undefined) {
    const n = charCount(fields.username);
    if (n < 1 || n > USERNAME_MAX) invalid(`username must have 1-${USERNAME_MAX} characters`);
  }
  if (fields.password) {
    const n = charCount(fields.password);
    if (n < PASSWORD_MIN || n > PASSWORD_MAX) invalid(`password must have ${PASSWORD_MIN}-${PASSWORD_MAX} characters`);
  }
  if (fields.display_name !== undefined && charCount(fields.display_name) > DISPLAY_NAME_MAX) {
    invalid(`display_name must have at most ${DISPLAY_NAME_MAX} characters`);
  }
  if (fields.email !== undefined && charCount(fields.email) > EMAIL_MAX) invalid(`email must have at most ${EMAIL_MAX} characters`);
  if (fields.group !== undefined && charCount(fields.group) > GROUP_MAX) invalid(`group must have at most ${GROUP_MAX} characters`);
}
