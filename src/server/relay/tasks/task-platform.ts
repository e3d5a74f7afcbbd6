/**
 * What the task poller needs of one kind of task (drawing, music): its table, its unfinished
 * rows, how to read their times and upstream ids, and one poll of one channel's tasks.
 * Adding a task platform is one module implementing this and one line in poller.ts.
 */
import type { AppContext } from '../../context';
import type { RelayChannel } from '../channels/channel-index';
import type { TaskRelay } from './task-relay';
import type { TaskTable } from './task-ledger';

export interface TaskRowBase {
  id: number;
  user_id: number;
  token_id: number;
  channel_id: number;
  quota: number;
  progress: string;
}

export interface TaskPlatform<Row extends TaskRowBase> {
  /** For log lines. */
  name: string;
  table: TaskTable;
  /** Rows not finished (progress ≠ 100%) and past their submission, oldest first. */
  unfinished(ctx: AppContext, limit: number): Promise<Row[]>;
  submittedMs(row: Row): number;
  upstreamId(row: Row): string;
  /** The refund's system log text, given the amount as shown. */
  refundText(row: Row): (amount: string) => string;
  /** A time column's value for the instant `ms` (milliseconds or seconds). */
  nowValue(ms: number): number;
  /** One call for these tasks of one channel; failures skip the round, they never throw. */
  pollChannel(rt: TaskRelay, channel: RelayChannel, rows: Row[]): Promise<void>;
}
