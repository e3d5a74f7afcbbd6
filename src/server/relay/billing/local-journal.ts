/**
 * The node's local settlement journal: what makes a kill -9 cost nothing that was delivered.
 *
 * A settlement is written to the database by the group commit up to ~50 ms (plus the write)
 * after the answer's last byte; a process killed in between used to leave that answer unbilled
 * (its reservation was refunded at the next start, or, held in memory, never existed). So each
 * settlement that charges something is first appended here, numbered, as one JSON line in a
 * file under DATA_DIR/ledger — a write to the operating system's page cache, which a killed
 * process cannot take back. The batch that writes settlements to the database moves this
 * process's row in `ledger_checkpoints` in the same transaction, so after a crash the next
 * start (same NODE_NAME, same DATA_DIR) replays exactly the numbered settlements the database
 * does not have (billing/journal-replay.ts).
 *
 * Streams still running also leave a "progress" line about once a second (what they delivered
 * so far, as a settlement): a stream cut by the crash is billed for that.
 *
 * Files: `<node>.<instance>.<pid>.<segment>.wal`, a new segment every 8 MB; a sealed segment is
 * deleted once every settlement numbered in it is in the database (the running streams'
 * latest progress lines are copied into each new segment). A clean stop deletes them all.
 * A power loss can still lose what the page cache held; that is the database's job.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LOG_COLUMNS, type SettleItem } from './ledger-sql';

const NEWLINE = 0x0a;
/** The write buffer kept between writes grows at most to this. */
const MAX_KEPT_BUFFER = 1024 * 1024;

/** Writes `lines` into `out`, one per row; answers the part written. */
function fill(out: Buffer, lines: readonly string[]): Buffer {
  let at = 0;
  for (const line of lines) {
    at += out.write(line, at);
    out[at++] = NEWLINE;
  }
  return out.subarray(0, at);
}

/** One record of the journal. */
export interface JournalRecord {
  /** `f`: a settlement, numbered; `p`: what a running stream delivered so far. */
  k: 'f' | 'p';
  /** The settlement's number in its process (final records). */
  n?: number;
  item: SettleItem;
}

/** The log's columns in a line, in this order (its quota is the item's, filled in when written). */
const LINE_LOG_COLUMNS = LOG_COLUMNS.filter((c) => c !== 'quota');

/**
 * A record as one line: a JSON array in a fixed order, `[k, n, reservationId, userId,
 * tokenId, tokenLimited, channelId, reserved, quota, countUsage, memoryHold, log]` with the
 * flags as 0/1 and the log as its column values (LINE_LOG_COLUMNS) or null. Every request
 * that charges writes one; without the keys it is about 40 % shorter (less to serialise,
 * encode and write) than the object it stands for. Lines written as that object (by earlier
 * versions) are still read.
 */
function recordLine(k: 'f' | 'p', n: number, item: SettleItem): string {
  const log = item.log as Record<string, unknown> | undefined;
  return JSON.stringify([
    k,
    n,
    item.reservationId,
    item.userId,
    item.tokenId,
    item.tokenLimited ? 1 : 0,
    item.channelId,
    item.reserved,
    item.quota,
    item.countUsage ? 1 : 0,
    item.memoryHold ? 1 : 0,
    log ? LINE_LOG_COLUMNS.map((c) => log[c] ?? null) : null,
  ]);
}

/** A line back into its record (either form); undefined when it is not one. */
function parseRecord(line: string): JournalRecord | undefined {
  const parsed: unknown = JSON.parse(line);
  if (!Array.isArray(parsed)) {
    const record = parsed as JournalRecord;
    return (record.k === 'f' || record.k === 'p') && record.item && typeof record.item.reservationId === 'string' ? record : undefined;
  }
  const [k, n, reservationId, userId, tokenId, tokenLimited, channelId, reserved, quota, countUsage, memoryHold, logValues] = parsed as unknown[];
  if ((k !== 'f' && k !== 'p') || typeof reservationId !== 'string') return undefined;
  // Amounts that are not numbers would bill NaN: such a line is not a record.
  const numbers = [n, userId, tokenId, channelId, reserved, quota];
  if (!numbers.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
  const item: SettleItem = {
    reservationId,
    userId: userId as number,
    tokenId: tokenId as number,
    tokenLimited: tokenLimited === 1,
    channelId: channelId as number,
    reserved: reserved as number,
    quota: quota as number,
    countUsage: countUsage === 1,
    memoryHold: memoryHold === 1,
  };
  if (Array.isArray(logValues)) {
    const log: Record<string, unknown> = {};
    LINE_LOG_COLUMNS.forEach((c, i) => {
      if (logValues[i] !== null && logValues[i] !== undefined) log[c] = logValues[i];
    });
    item.log = log as SettleItem['log'];
  }
  return k === 'f' ? { k, n: n as number, item } : { k, item };
}

/** What a batch leaves in `ledger_checkpoints` (see the migration). */
export interface Checkpoint {
  low: number;
  above: string;
}

const SEGMENT_BYTES = 8 * 1024 * 1024;

/** Instances of this process (several apps can share one, in tests): never replayed. */
const liveInstances = new Set<string>();

export function journalDir(dataDir: string): string {
  return join(dataDir, 'ledger');
}

/** A node name as it can stand in a file name (no dots: they separate the parts). */
function fileNode(node: string): string {
  return node.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** `above` as stored: numbers written beyond `low`, ascending. */
function formatAbove(above: Iterable<number>): string {
  return [...above].sort((a, b) => a - b).join(',');
}

export function parseCheckpoint(low: unknown, above: unknown): { low: number; above: Set<number> } {
  const set = new Set<number>();
  for (const part of String(above ?? '').split(',')) if (part !== '') set.add(Number(part));
  return { low: Number(low ?? 0), above: set };
}

/** Whether settlement `n` is written according to a checkpoint. */
export function isApplied(checkpoint: { low: number; above: Set<number> }, n: number): boolean {
  return n <= checkpoint.low || checkpoint.above.has(n);
}

/** `low` moved up over every number in `above` that follows it without a gap. */
function advance(low: number, above: Set<number>): number {
  while (above.has(low + 1)) {
    above.delete(low + 1);
    low++;
  }
  return low;
}

interface Segment {
  file: string;
  /** Highest settlement number written to it (0: none). */
  lastNumber: number;
}

export class LocalJournal {
  readonly #dir: string;
  readonly #prefix: string;
  #fd: number | undefined;
  #segments: Segment[] = [];
  #bytes = 0;
  #buffer: string[] = [];
  /** Reused by #encode; grows with the largest write seen, up to MAX_KEPT_BUFFER. */
  #out = Buffer.allocUnsafe(64 * 1024);
  #flushScheduled = false;
  #number = 0;
  /** Running streams' latest progress lines, copied into each new segment. */
  readonly #live = new Map<string, string>();
  #low = 0;
  readonly #above = new Set<number>();
  /** Numbers given up (never to be written): counted as written by the next batch. */
  readonly #givenUp: number[] = [];

  constructor(
    dataDir: string,
    node: string,
    readonly instance: string,
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {
    this.#dir = journalDir(dataDir);
    this.#prefix = `${fileNode(node)}.${instance}.${process.pid}`;
  }

  /** Opens the first segment (throws when DATA_DIR cannot be written). */
  open(): void {
    mkdirSync(this.#dir, { recursive: true });
    liveInstances.add(this.instance);
    this.#openSegment();
  }

  get isOpen(): boolean {
    return this.#fd !== undefined;
  }

  /** Journals a settlement; answers its number. */
  final(item: SettleItem): number {
    const n = ++this.#number;
    this.#live.delete(item.reservationId);
    this.#push(recordLine('f', n, item));
    this.#segments[this.#segments.length - 1]!.lastNumber = n;
    return n;
  }

  /** Journals what a running stream delivered so far (replaces its earlier progress). */
  progress(item: SettleItem): void {
    const line = recordLine('p', 0, item);
    this.#live.set(item.reservationId, line);
    this.#push(line);
  }

  /** A stream ended without a settlement to journal (its progress no longer applies). */
  forget(reservationId: string): void {
    this.#live.delete(reservationId);
  }

  hasProgress(reservationId: string): boolean {
    return this.#live.has(reservationId);
  }

  /** The checkpoint a batch writing `numbers` leaves (nothing changes until `committed`). */
  checkpointWith(numbers: readonly number[]): Checkpoint {
    const above = new Set(this.#above);
    for (const n of numbers) above.add(n);
    for (const n of this.#givenUp) above.add(n);
    const low = advance(this.#low, above);
    return { low, above: formatAbove(above) };
  }

  /** The batch that wrote `numbers` (with `checkpoint`) committed. */
  committed(numbers: readonly number[]): void {
    for (const n of numbers) this.#above.add(n);
    for (const n of this.#givenUp.splice(0)) this.#above.add(n);
    this.#low = advance(this.#low, this.#above);
    this.#dropWrittenSegments();
  }

  /** A settlement the ledger gave up: its reservation is refunded at the next start instead. */
  giveUp(n: number): void {
    this.#givenUp.push(n);
  }

  /** Everything journaled is in the database and no stream is running. */
  get settled(): boolean {
    return this.#low === this.#number && this.#live.size === 0 && this.#buffer.length === 0;
  }

  /** Writes what is buffered now. */
  flush(): void {
    this.#flushScheduled = false;
    if (this.#buffer.length === 0 || this.#fd === undefined) return;
    const lines = this.#buffer;
    this.#buffer = [];
    this.#bytes += writeSync(this.#fd, this.#encode(lines));
    if (this.#bytes >= this.segmentBytes) this.#openSegment();
  }

  /** Stop: the files go when everything reached the database (else the next start replays them). */
  close(): void {
    this.flush();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    if (this.settled) {
      for (const s of this.#segments) unlinkQuietly(s.file);
      this.#segments = [];
    }
    liveInstances.delete(this.instance);
  }

  #push(line: string): void {
    this.#buffer.push(line);
    // One write per turn of the event loop, whatever the number of settlements in it: the
    // answer's last byte went out in this turn, so the line is safe well within a millisecond.
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /**
   * The lines as UTF-8, one per row, in a buffer kept from one write to the next: no joined
   * copy of the text and no new buffer per write (a line is a kilobyte or two per request).
   */
  #encode(lines: readonly string[]): Buffer {
    let size = 0;
    for (const line of lines) size += Buffer.byteLength(line) + 1;
    // A rare burst larger than the kept buffer's bound gets a buffer of its own.
    if (this.#out.length < size) {
      const grown = Buffer.allocUnsafe(Math.max(size, this.#out.length * 2));
      if (grown.length <= MAX_KEPT_BUFFER) this.#out = grown;
      return fill(grown, lines);
    }
    return fill(this.#out, lines);
  }

  #openSegment(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    const file = join(this.#dir, `${this.#prefix}.${this.#segments.length === 0 ? 0 : segmentNumber(this.#segments[this.#segments.length - 1]!.file) + 1}.wal`);
    this.#fd = openSync(file, 'a');
    this.#segments.push({ file, lastNumber: this.#segments.at(-1)?.lastNumber ?? 0 });
    this.#bytes = 0;
    // The running streams' progress must outlive the segments that are about to be dropped.
    const carried = [...this.#live.values()];
    if (carried.length > 0) this.#bytes += writeSync(this.#fd, carried.join('\n') + '\n');
    this.#dropWrittenSegments();
  }

  #dropWrittenSegments(): void {
    while (this.#segments.length > 1 && this.#segments[0]!.lastNumber <= this.#low) unlinkQuietly(this.#segments.shift()!.file);
  }
}

function segmentNumber(file: string): number {
  return Number(/\.(\d+)\.wal$/.exec(file)?.[1] ?? 0);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The journal files of one earlier process of this node. */
export interface DeadJournal {
  instance: string;
  files: string[];
}

/**
 * Journals of this node whose process is gone (not one of this process's own, and its pid no
 * longer running: after a container restart the same pid is an earlier process).
 */
export function deadJournals(dataDir: string, node: string): DeadJournal[] {
  const dir = journalDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const prefix = `${fileNode(node)}.`;
  const byInstance = new Map<string, { pid: number; files: { file: string; segment: number }[] }>();
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.wal')) continue;
    const parts = name.slice(prefix.length, -'.wal'.length).split('.');
    if (parts.length !== 3) continue;
    const [instance, pid, segment] = parts as [string, string, string];
    const entry = byInstance.get(instance) ?? { pid: Number(pid), files: [] };
    entry.files.push({ file: join(dir, name), segment: Number(segment) });
    byInstance.set(instance, entry);
  }
  const out: DeadJournal[] = [];
  for (const [instance, entry] of byInstance) {
    if (liveInstances.has(instance) || processAlive(entry.pid)) continue;
    out.push({ instance, files: entry.files.sort((a, b) => a.segment - b.segment).map((f) => f.file) });
  }
  return out;
}

/** The records of a journal in order; a line torn by the kill is skipped. */
export function readJournal(files: readonly string[]): JournalRecord[] {
  const out: JournalRecord[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        const record = parseRecord(line);
        if (record) out.push(record);
      } catch {
        // the last line, cut short by the kill
      }
    }
  }
  return out;
}

export function removeJournal(journal: DeadJournal): void {
  for (const file of journal.files) unlinkQuietly(file);
}
