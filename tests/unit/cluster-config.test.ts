/**
 * Cluster mode's configuration (WORKERS, the node name and the master process of each worker)
 * and the change hub's sibling transport (the cluster's IPC channel when Redis is absent).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, WORKER_INDEX_ENV } from '../../src/server/config';
import { ChangeHub, type Change, type SiblingChannel, type WireChange } from '../../src/server/plumbing/change-events';

const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-cluster-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function config(env: Record<string, string>) {
  return loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'unit-test-session-secret-0123456789', ...env });
}

describe('WORKERS and the workers’ identities', () => {
  it('reads WORKERS: 1 by default, 0 and auto as one per CPU, refuses negatives', () => {
    expect(config({}).workers).toBe(1);
    expect(config({ WORKERS: '3' }).workers).toBe(3);
    expect(config({ WORKERS: '0' }).workers).toBe(availableParallelism());
    expect(config({ WORKERS: 'auto' }).workers).toBe(availableParallelism());
    expect(() => config({ WORKERS: '-2' })).toThrow(/WORKERS/);
  });

  it('gives a single process its NODE_NAME as it is and the master role of NODE_TYPE', () => {
    const single = config({ NODE_NAME: 'edge' });
    expect(single.workerIndex).toBe(0);
    expect(single.nodeName).toBe('edge');
    expect(single.masterProcess).toBe(true);
    expect(config({ NODE_TYPE: 'slave' }).masterProcess).toBe(false);
  });

  it('names each worker after its index and lets only worker 1 of a master node run the background loops', () => {
    const first = config({ NODE_NAME: 'edge', [WORKER_INDEX_ENV]: '1' });
    const second = config({ NODE_NAME: 'edge', [WORKER_INDEX_ENV]: '2' });
    expect([first.nodeName, second.nodeName]).toEqual(['edge-1', 'edge-2']);
    expect([first.masterProcess, second.masterProcess]).toEqual([true, false]);
    // The configured type is kept (console redirects of slave nodes are the same on every worker).
    expect(second.nodeType).toBe('master');
    expect(config({ NODE_TYPE: 'slave', [WORKER_INDEX_ENV]: '1' }).masterProcess).toBe(false);
    expect(config({ [WORKER_INDEX_ENV]: '3' }).nodeName).toBe(`${hostname()}-3`);
  });
});

/** Sibling hubs wired to each other the way the primary relays IPC messages. */
function siblings(count: number): { channels: SiblingChannel[]; sent: WireChange[] } {
  const listeners: ((message: unknown) => void)[][] = Array.from({ length: count }, () => []);
  const sent: WireChange[] = [];
  const channels = listeners.map((mine, index): SiblingChannel => ({
    send: (change) => {
      sent.push(change);
      // Through a JSON round trip, as over the IPC channel.
      for (const [other, theirs] of listeners.entries()) if (other !== index) for (const l of theirs) l(JSON.parse(JSON.stringify(change)));
    },
    listen: (listener) => {
      mine.push(listener);
      return () => mine.splice(mine.indexOf(listener), 1);
    },
  }));
  return { channels, sent };
}

describe('change hub between sibling workers', () => {
  it('delivers a change to the siblings as remote, once, and to its own listeners as local', async () => {
    const { channels } = siblings(3);
    const hubs = channels.map((c) => new ChangeHub(undefined, c));
    await Promise.all(hubs.map((h) => h.start()));
    const heard: Change[][] = hubs.map(() => []);
    hubs.forEach((h, i) => h.on((change) => heard[i]!.push(change)));
    hubs[0]!.emit('tokens', [7], { reason: 'update' });
    expect(heard[0]).toEqual([{ topic: 'tokens', ids: [7], reason: 'update', remote: false }]);
    expect(heard[1]).toEqual([{ topic: 'tokens', ids: [7], reason: 'update', remote: true }]);
    expect(heard[2]).toEqual([{ topic: 'tokens', ids: [7], reason: 'update', remote: true }]);
    for (const h of hubs) h.stop();
    hubs[0]!.emit('channels', []);
    expect(heard[1]).toHaveLength(1);
  });

  it('ignores what is not a change of a known topic', async () => {
    let deliver: (message: unknown) => void = () => undefined;
    const hub = new ChangeHub(undefined, { send: () => undefined, listen: (l) => ((deliver = l), () => undefined) });
    await hub.start();
    const heard: Change[] = [];
    hub.on((c) => heard.push(c));
    deliver({ origin: 'x', topic: 'secrets', ids: [1] });
    deliver('tokens');
    deliver(null);
    deliver({ origin: 'x', topic: 'options', ids: ['1', 2], key: 'Foo' });
    expect(heard).toEqual([{ topic: 'options', ids: [2], key: 'Foo', remote: true }]);
  });
});
