/**
 * Records administrative changes: who (the signed-in caller and the request's IP), when,
 * what (kind, action, target) and the changed fields before and after. Routes wrap a write
 * in `around`: the record's row is read before and after the write, and the difference is
 * queued once the write has succeeded. Nothing here can fail or hold up the write: reading
 * a snapshot that fails leaves that side out, and the insert happens later in a batch
 * (AuditQueue).
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables';
import { AuditQueue, type AuditWarn } from './audit.queue';
import { changedFields, type Snapshot } from './audit.changes';
import { nowSeconds } from '../../../shared/time';

export const AUDIT_KINDS = ['option', 'channel', 'token', 'user', 'redemption'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** The tables whose rows the audit log reads by id. */
export type AuditedTable = 'channels' | 'tokens' | 'users' | 'redemptions';

export interface AuditEvent {
  kind: AuditKind;
  action: string;
  /** The option key, or the ids or tag the change touched. */
  target?: string | number | readonly (string | number)[];
  /** Extra fields to mask (an option's `value` when the option is a secret). */
  secretFields?: readonly string[];
}

/** How an `around` write is seen: a snapshot before and after, or what the result says. */
export interface AuditSides<T> {
  /** Read before and after the write (undefined after a deletion). */
  load?: () => Promise<Snapshot | undefined>;
  /** The after side from the write's result (a creation), when there is no `load`. */
  after?: (result: T) => Snapshot | undefined;
  /** The target from the write's result (the ids a creation made). */
  target?: (result: T) => AuditEvent['target'];
}

/** Longest stored target text (the column holds 191 characters). */
const MAX_TARGET = 191;

function targetText(target: AuditEvent['target']): string {
  if (target === undefined) return '';
  const text = Array.isArray(target) ? target.join(',') : String(target);
  return text.length > MAX_TARGET ? `${text.slice(0, MAX_TARGET - 1)}…` : text;
}

/** A snapshot, or undefined when there is none or reading it failed (the write goes on). */
async function snapshot(load: (() => Promise<Snapshot | undefined>) | undefined): Promise<Snapshot | undefined> {
  try {
    return await load?.();
  } catch {
    return undefined;
  }
}

export class AuditTrail {
  readonly queue: AuditQueue;

  constructor(
    private readonly db: Kysely<Database>,
    warn?: AuditWarn,
  ) {
    this.queue = new AuditQueue(db, warn);
  }

  /** One row of `table` by id as a snapshot; undefined when it is gone or cannot be read. */
  row(table: AuditedTable, id: number): () => Promise<Snapshot | undefined> {
    return async () => (await this.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()) as Snapshot | undefined;
  }

  /** Queues one row for a change that has been made. Never throws. */
  record(request: FastifyRequest, event: AuditEvent, before: Snapshot | undefined, after: Snapshot | undefined): void {
    try {
      const changes = changedFields(before, after, new Set(event.secretFields ?? []));
      this.queue.push({
        created_at: nowSeconds(),
        user_id: request.auth?.id ?? 0,
        username: request.auth?.username ?? '',
        ip: request.ip ?? '',
        kind: event.kind,
        action: event.action,
        target: targetText(event.target),
        changes: JSON.stringify(changes),
      });
    } catch (err) {
      request.log.warn(`audit log: an entry could not be queued: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Runs `write`, then records it with the record's snapshots (see AuditSides). A write that
   * throws is not recorded: nothing changed.
   */
  async around<T>(request: FastifyRequest, event: AuditEvent, sides: AuditSides<T>, write: () => Promise<T>): Promise<T> {
    const before = await snapshot(sides.load);
    const result = await write();
    try {
      const after = sides.load ? await snapshot(sides.load) : sides.after?.(result);
      const target = sides.target ? sides.target(result) : event.target;
      this.record(request, { ...event, target }, before, after);
    } catch (err) {
      request.log.warn(`audit log: a change could not be described: ${err instanceof Error ? err.message : String(err)}`);
    }
    return result;
  }

  /** Writes what is queued (on shutdown, and for tests). */
  flush(): Promise<void> {
    return this.queue.flush();
  }
}
