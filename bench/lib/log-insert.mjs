// CPU per consume-log row inserted as the ledger inserts them (one transaction per batch,
// multi-row INSERTs of up to 256 rows, WAL, synchronous NORMAL), with SQLite's temporary
// files on disk (temp_store FILE, SQLite's default) and in memory (what the ledger sets for its
// transactions; the connection's other queries keep SQLite's default).
// A multi-row INSERT keeps a statement journal; past 64 KB SQLite spills it to a temporary
// file, so on disk every batch writes its pages twice. Keys: "single" (one user, token,
// model and channel, as the load rows of `npm run bench`) or "spread" (100 users, 1,000
// tokens, 30 models, 50 channels: each log index gets a different page per row).
//   node bench/lib/log-insert.mjs <a SQLite database of the server> [rows per batch] [single|spread]
// The database is copied first (nothing is written to it); its `logs` table gives the columns.
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [source, batchArg = '256', keys = 'single'] = process.argv.slice(2);
if (!source || !['single', 'spread'].includes(keys)) throw new Error('usage: log-insert.mjs <database file> [rows per batch] [single|spread]');
const BATCH = Number(batchArg);
const CHUNK = 256;
const ROUNDS = 4;
const BATCHES = 200;

const other = JSON.stringify({ model_ratio: 0.075, completion_ratio: 4, group_ratio: 1, model_price: -1, frt: -1, request_id: '20261129110000123456789abcdef', admin_info: { use_channel: ['1'] } });

/** One consume log, the n-th of the run; the keys spread or not. */
function logRow(n) {
  const s = keys === 'spread';
  const user = s ? n % 100 : 1;
  const token = s ? n % 1000 : 1;
  return {
    user_id: user,
    created_at: 1_795_950_000 + (n >> 8),
    type: 2,
    content: '模型倍率 0.08，补全倍率 4.00，分组倍率 1.00',
    username: `user${user}`,
    token_name: `token${token}`,
    token_id: token,
    model_name: `model-${s ? n % 30 : 0}`,
    quota: 123,
    prompt_tokens: 14,
    completion_tokens: 30,
    use_time: 0,
    is_stream: 0,
    channel_id: s ? n % 50 : 1,
    group: 'default',
    other,
  };
}

function chunkSizes(rows) {
  const out = [];
  for (let i = 0; i < rows;) {
    let size = CHUNK;
    while (size > rows - i) size >>= 1;
    out.push(size);
    i += size;
  }
  return out;
}

/** µs of CPU per row over `batches` transactions. */
function measure(db, columns, batches, counter) {
  const statements = new Map();
  const insert = (rows) => {
    let stmt = statements.get(rows);
    if (!stmt) {
      const one = `(${columns.map(() => '?').join(', ')})`;
      stmt = db.prepare(`INSERT INTO logs (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${Array.from({ length: rows }, () => one).join(', ')}`);
      statements.set(rows, stmt);
    }
    return stmt;
  };
  const start = process.cpuUsage();
  for (let b = 0; b < batches; b++) {
    db.exec('BEGIN IMMEDIATE');
    for (const rows of chunkSizes(BATCH)) {
      const values = [];
      for (let r = 0; r < rows; r++) {
        const row = logRow(counter.n++);
        for (const c of columns) values.push(row[c]);
      }
      insert(rows).run(...values);
    }
    db.exec('COMMIT');
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (batches * BATCH);
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-log-insert-'));
const results = { FILE: [], MEMORY: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const store of ['FILE', 'MEMORY']) {
      const file = join(dir, `${store}-${round}.db`);
      copyFileSync(source, file);
      const db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma(`temp_store = ${store}`);
      const columns = db
        .prepare("SELECT name FROM pragma_table_info('logs')")
        .all()
        .map((c) => c.name)
        .filter((c) => c in logRow(0));
      const counter = { n: 0 };
      measure(db, columns, 20, counter); // warm-up: statements prepared, pages cached
      results[store].push(measure(db, columns, BATCHES, counter));
      db.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => xs.map((x) => x.toFixed(1)).join(' ');
console.log(`log insert, ${BATCH} rows per transaction, ${keys} keys, µs CPU per row (${ROUNDS} rounds of ${BATCHES} transactions each, interleaved):`);
console.log(`  temp_store FILE (SQLite's default): median ${median(results.FILE).toFixed(1)}  (${fmt(results.FILE)})`);
console.log(`  temp_store MEMORY (the ledger's):   median ${median(results.MEMORY).toFixed(1)}  (${fmt(results.MEMORY)})`);
console.log(`  MEMORY ÷ FILE: ${(median(results.MEMORY) / median(results.FILE)).toFixed(2)}`);
