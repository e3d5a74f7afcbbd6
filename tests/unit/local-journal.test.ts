/**
 * The local settlement journal (relay/billing/local-journal.ts): numbers, checkpoints that
 * only move on commit, segments dropped once written, running streams' progress carried into
 * each new segment, and what a later start reads back.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deadJournals, isApplied, LocalJournal, parseCheckpoint, readJournal } from '../../src/server/relay/billing/local-journal';
import type { SettleItem } from '../../src/server/relay/billing/ledger-sql';

function item(reservationId: string, quota = 10): SettleItem {
  return { reservationId, userId: 1, tokenId: 0, tokenLimited: false, channelId: 0, reserved: 0, quota, countUsage: true };
}

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('local settlement journal', () => {
  it('moves the checkpoint only on commit, over gaps once they fill', () => {
    const journal = new LocalJournal(dataDir(), 'n', 'i1');
    journal.open();
    const [a, b, c] = [journal.final(item('a')), journal.final(item('b')), journal.final(item('c'))];
    expect([a, b, c]).toEqual([1, 2, 3]);
    expect(journal.checkpointWith([c])).toEqual({ low: 0, above: '3' });
    // Not committed: nothing moved.
    expect(journal.checkpointWith([a])).toEqual({ low: 1, above: '' });
    journal.committed([c]);
    expect(journal.checkpointWith([a])).toEqual({ low: 1, above: '3' });
    journal.committed([a]);
    journal.giveUp(b);
    expect(journal.checkpointWith([])).toEqual({ low: 3, above: '' });
    journal.committed([]);
    expect(journal.settled).toBe(false);
    journal.flush();
    expect(journal.settled).toBe(true);
    journal.close();
  });

  it('writes every line whole in UTF-8, in small writes and in a burst larger than its kept buffer', () => {
    const dir = dataDir();
    const journal = new LocalJournal(dir, 'n', 'i9');
    journal.open();
    const withLog = (id: string): SettleItem => ({
      ...item(id),
      log: {
        user_id: 1,
        created_at: 1,
        type: 2,
        content: '模型倍率 0.075，补全倍率 4，分组倍率 1',
        username: '用户',
        token_name: 't',
        token_id: 0,
        model_name: 'gpt-4o-mini',
        prompt_tokens: 1,
        completion_tokens: 2,
        use_time: 0,
        is_stream: false,
        channel_id: 1,
        group: 'default',
        other: '{"frt":1}',
      },
    });
    journal.final(withLog('first'));
    journal.flush();
    // About 2 MB in one turn: more than the 1 MB buffer the journal keeps between writes.
    const burst = Array.from({ length: 4000 }, (_, n) => `b${n}`);
    for (const id of burst) journal.final({ ...withLog(id), log: { ...withLog(id).log!, content: '内容'.repeat(120) } });
    journal.flush();
    journal.final(withLog('last'));
    journal.flush();
    const files = readdirSync(join(dir, 'ledger')).map((f) => join(dir, 'ledger', f));
    const records = readJournal(files);
    expect(records.map((r) => r.item.reservationId)).toEqual(['first', ...burst, 'last']);
    expect(records[0]!.item.log?.content).toBe('模型倍率 0.075，补全倍率 4，分组倍率 1');
    expect(records[1]!.item.log?.content).toBe('内容'.repeat(120));
    journal.close();
  });

  it('reads back every field of a settlement and its log; lines in the earlier object form too', () => {
    const dir = dataDir();
    const journal = new LocalJournal(dir, 'n', 'i10');
    journal.open();
    const full: SettleItem = {
      reservationId: 'm-full',
      userId: 7,
      tokenId: 9,
      tokenLimited: true,
      channelId: 3,
      reserved: 40,
      quota: 55,
      countUsage: true,
      memoryHold: true,
      log: {
        user_id: 7,
        created_at: 1_796_000_000,
        type: 2,
        content: '模型倍率 1.00，补全倍率 4.00，分组倍率 1.00',
        username: 'u "quoted"',
        token_name: 't\nline',
        token_id: 9,
        model_name: 'gpt-4o-mini',
        prompt_tokens: 12,
        completion_tokens: 25,
        use_time: 1,
        is_stream: true,
        channel_id: 3,
        group: 'vip',
        other: '{"frt":19,"admin_info":{"use_channel":["3"]}}',
      },
    };
    const refund: SettleItem = { reservationId: 'r-0', userId: 1, tokenId: 0, tokenLimited: false, channelId: 0, reserved: 10, quota: 0, countUsage: false, memoryHold: false };
    journal.progress({ ...full, reservationId: 'm-stream', quota: 20 });
    journal.final(full);
    journal.final(refund);
    journal.flush();
    const ledger = join(dir, 'ledger');
    const files = readdirSync(ledger).map((f) => join(ledger, f));
    expect(readJournal(files)).toEqual([
      { k: 'p', item: { ...full, reservationId: 'm-stream', quota: 20 } },
      { k: 'f', n: 1, item: full },
      { k: 'f', n: 2, item: refund },
    ]);
    // A journal left by a version that wrote each record as an object.
    const old = join(ledger, 'old.wal');
    // Also a line whose amounts are not numbers, and one torn by the kill: neither is a record.
    writeFileSync(old, `${JSON.stringify({ k: 'f', n: 5, item: full })}\n${JSON.stringify({ k: 'x', item: full })}\n["f",7,"r-x",1,0,0,0,"10",5,1,0,null]\n["f",6,`);
    expect(readJournal([old])).toEqual([{ k: 'f', n: 5, item: full }]);
    journal.committed([1, 2]);
    journal.forget('m-stream');
    journal.close();
  });

  it('reads back what was written, torn lines skipped; a clean close leaves no file', () => {
    const dir = dataDir();
    const journal = new LocalJournal(dir, 'node a', 'i2');
    journal.open();
    journal.progress(item('s', 5));
    journal.final(item('x'));
    journal.flush();
    const files = readdirSync(join(dir, 'ledger')).map((f) => join(dir, 'ledger', f));
    expect(readJournal(files).map((r) => [r.k, r.item.reservationId])).toEqual([
      ['p', 's'],
      ['f', 'x'],
    ]);
    // Its own process is alive: never someone else's to replay.
    expect(deadJournals(dir, 'node a')).toEqual([]);
    journal.forget('s');
    journal.committed([1]);
    journal.close();
    expect(readdirSync(join(dir, 'ledger'))).toEqual([]);
  });

  it('drops written segments and carries running streams into new ones', () => {
    const dir = dataDir();
    const journal = new LocalJournal(dir, 'n', 'i3', 100);
    journal.open();
    journal.progress(item('stream', 7));
    const numbers: number[] = [];
    for (let n = 0; n < 10; n++) {
      numbers.push(journal.final(item(`r${n}`)));
      journal.flush();
    }
    const segments = () => readdirSync(join(dir, 'ledger')).sort();
    expect(segments().length).toBeGreaterThan(2);
    journal.committed(numbers);
    // Only the open segment is left, and it still knows the running stream.
    expect(segments()).toHaveLength(1);
    const left = readJournal(segments().map((f) => join(dir, 'ledger', f)));
    expect(left.filter((r) => r.k === 'p').map((r) => r.item.reservationId)).toEqual(['stream']);
    // Not settled while the stream runs: the file stays for a replay.
    journal.close();
    expect(segments()).toHaveLength(1);
  });

  it('parses stored checkpoints', () => {
    const cp = parseCheckpoint('4', '6,9');
    expect([1, 4, 5, 6, 7, 9].map((n) => isApplied(cp, n))).toEqual([true, true, false, true, false, true]);
    expect(parseCheckpoint(0, '').above.size).toBe(0);
  });
});
