/**
 * Channel choice timing, run on the target core by `npm run bench -- db` with
 * `node --import tsx`: the relay's own ChannelIndex, built from the seeded database, then
 * `pick(group, model, 0, ∅)` timed call by call over every (group, model) the channels serve.
 * Input (argv[2], JSON): { dialect, location, picks }. Prints one JSON line.
 */
import { openDatabase, type DialectName } from '../../src/server/db/connect';
import type { AppContext } from '../../src/server/context';
import { ChannelIndex } from '../../src/server/relay/channels/channel-index';
import { abilityRowsFor } from '../../src/server/services/channels/abilities.sync';

interface Input {
  dialect: DialectName;
  location: string;
  picks: number;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const { db, dialect, close } = await openDatabase({ dialect: input.dialect, location: input.location }, { maxConnections: 2 });
try {
  // The index reads only the database; the rest of the context is not touched by a rebuild.
  const index = new ChannelIndex({ db, dialect } as unknown as AppContext);
  const buildStart = process.hrtime.bigint();
  await index.refresh();
  const buildMs = Number(process.hrtime.bigint() - buildStart) / 1e6;

  const rows = await db.selectFrom('channels').selectAll().where('status', '=', 1).execute();
  const pairs = new Map<string, [string, string]>();
  for (const row of rows) for (const a of abilityRowsFor(row)) pairs.set(`${a.group}\u0000${a.model}`, [a.group, a.model]);
  const keys = [...pairs.values()];
  if (keys.length === 0) throw new Error('no enabled channel serves any model');

  const none = new Set<number>();
  const times = new Float64Array(input.picks);
  let misses = 0;
  for (let i = 0; i < 20_000; i++) index.pick(keys[i % keys.length]![0], keys[i % keys.length]![1], 0, none);
  for (let i = 0; i < input.picks; i++) {
    const [group, model] = keys[(i * 7919) % keys.length]!;
    const start = process.hrtime.bigint();
    const chosen = index.pick(group, model, 0, none);
    times[i] = Number(process.hrtime.bigint() - start) / 1e3;
    if (!chosen) misses++;
  }
  times.sort();
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
  process.stdout.write(JSON.stringify({ channels: rows.length, pairs: keys.length, picks: input.picks, misses, buildMs, p50us: at(50), p99us: at(99), maxUs: times[times.length - 1] }) + '\n');
} finally {
  await close();
}
