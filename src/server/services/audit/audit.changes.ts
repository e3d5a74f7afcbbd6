/**
 * What an audit row says changed: only the fields whose value differs between the record
 * before and after the write, with every secret field replaced by a mask (whether a secret
 * changed is worth recording; its value never is).
 */

export type Snapshot = Record<string, unknown>;

export interface AuditChanges {
  before?: Snapshot;
  after?: Snapshot;
}

/** What a secret reads as in the audit log. */
export const SECRET_MASK = '******';

/** Fields whose values are secrets in any record the audit log sees. */
const SECRET_FIELDS = new Set(['key', 'password', 'access_token', 'secret', 'setting_secret']);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `user:password@` of any URL in a text (a channel's `setting.proxy`), masked. */
const URL_CREDENTIALS = /(\/\/)[^/@\s"]+@/g;

function masked(field: string, value: unknown, secretFields: ReadonlySet<string>): unknown {
  if (typeof value === 'string' && value.includes('@')) value = value.replace(URL_CREDENTIALS, `$1${SECRET_MASK}@`);
  if (!secretFields.has(field) && !SECRET_FIELDS.has(field)) return value;
  return value === '' || value === null || value === undefined ? value : SECRET_MASK;
}

/**
 * The changed fields of `before` and `after` (either may be missing: a creation or a
 * deletion keeps every field of the other side). `secretFields` adds names to mask, such
 * as an option key marked secret.
 */
export function changedFields(before: Snapshot | undefined, after: Snapshot | undefined, secretFields: ReadonlySet<string> = new Set()): AuditChanges {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const out: { before: Snapshot; after: Snapshot } = { before: {}, after: {} };
  for (const field of fields) {
    const b = before?.[field];
    const a = after?.[field];
    if (before && after && same(a, b)) continue;
    if (before && field in before) out.before[field] = masked(field, b, secretFields);
    if (after && field in after) out.after[field] = masked(field, a, secretFields);
  }
  return { ...(before ? { before: out.before } : {}), ...(after ? { after: out.after } : {}) };
}
