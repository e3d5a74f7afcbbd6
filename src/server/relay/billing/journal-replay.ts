/**
 * At start, before reservations are refunded: the settlements an earlier process of this node
 * journaled locally (local-journal.ts) but did not get into the database before it died are
 * written now, and streams it was relaying when it died are billed for what they delivered
 * (their last progress line).
 *
 * Exactly once: a settlement is skipped when its number is covered by its process's checkpoint
 * row (written in the same transaction as the settlement). A replayed settlement is journaled
 * again by this process, under its own number, before the old files go; if this start dies
 * half-way, the next one sees the settlement in both journals and writes it at most once,
 * because reservation ids are unique and one written copy marks the reservation done.
 *
 * Order with recovery: a replayed settlement finds its reservation's journal row and charges
 * `cost − reserved`; had the row been refunded already it would charge the whole cost, which
 * comes to the same money either way.
 */
import type { AppContext } from '../../context';
import type { Ledger } from './ledger';
import type { SettleItem } from './ledger-sql';
import { deadJournals, isApplied, parseCheckpoint, readJournal, removeJournal } from './local-journal';
import { nowSeconds } from '../../../shared/time';

export interface ReplayResult {
  settlements: number;
  quota: number;
  /** Journals found without a checkpoint row (nothing to tell what was written): not replayed. */
  skippedJournals: number;
}

/** Checkpoint rows this old belong to processes long gone (a live one makes its row again). */
const CHECKPOINT_TTL_SECONDS = 7 * 24 * 3600;

interface ReservationState {
  written: boolean;
  final?: SettleItem;
  progress?: SettleItem;
}

export async function replayJournals(ctx: AppContext, ledger: Ledger): Promise<ReplayResult> {
  const result: ReplayResult = { settlements: 0, quota: 0, skippedJournals: 0 };
  const dead = deadJournals(ctx.config.dataDir, ledger.node);
  if (dead.length === 0) return result;
  const rows = await ctx.db
    .selectFrom('ledger_checkpoints')
    .select(['instance', 'applied_low', 'applied_above'])
    .where(
      'instance',
      'in',
      dead.map((d) => d.instance),
    )
    .execute();
  const checkpoints = new Map(rows.map((r) => [r.instance, parseCheckpoint(r.applied_low, r.applied_above)]));

  const states = new Map<string, ReservationState>();
  for (const journal of dead) {
    const checkpoint = checkpoints.get(journal.instance);
    if (!checkpoint) {
      result.skippedJournals++;
      continue;
    }
    for (const record of readJournal(journal.files)) {
      const id = record.item.reservationId;
      const state = states.get(id) ?? { written: false };
      states.set(id, state);
      if (record.k === 'p') state.progress = record.item;
      else if (record.n !== undefined && isApplied(checkpoint, record.n)) state.written = true;
      else state.final = record.item;
    }
  }

  for (const state of states.values()) {
    if (state.written) continue;
    const item = state.final ?? state.progress;
    if (!item) continue;
    result.settlements++;
    void ledger.settle(item).then(({ charged }) => (result.quota += charged));
  }
  // Written now; one that keeps failing stays journaled by this process (retried, or given up
  // like any settlement), so the old files can go either way.
  await ledger.flush();

  for (const journal of dead) removeJournal(journal);
  const now = nowSeconds();
  await ctx.db
    .deleteFrom('ledger_checkpoints')
    .where((eb) =>
      eb.or([
        eb(
          'instance',
          'in',
          dead.map((d) => d.instance),
        ),
        eb('updated_at', '<', now - CHECKPOINT_TTL_SECONDS),
      ]),
    )
    .where('instance', '!=', ledger.instance)
    .execute();
  return result;
}
