/**
 * A settled request's body is not kept alive while its settlement waits for the ledger's
 * batch: the work after the commit holds only the figures it reads, not the call (which
 * carries the request's bytes and their parse). Kept, every request in that window was
 * promoted to V8's old generation (peak RSS under load with 100 KB prompts 258–267 MB
 * against 159–167 MB without, issue #16).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { settleDelivered } from '../../src/server/relay/pipeline/settle';
import type { Delivered, RelayCall } from '../../src/server/relay/pipeline/call';
import type { RelayRuntime } from '../../src/server/relay/runtime';
import type { SettleItem, SettleResult } from '../../src/server/relay/billing/ledger-sql';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function callWithBody(body: Record<string, unknown>): RelayCall {
  return {
    requestId: 'req-1',
    startedAt: Date.now(),
    mode: 'chat',
    body,
    rawBody: Buffer.from(JSON.stringify(body)),
    model: 'gpt-4o-mini',
    stream: false,
    includeUsage: false,
    maxTokens: 0,
    caller: { userId: 7, username: 'u', tokenId: 9, tokenName: 't', tokenLimited: true, group: 'default', userGroup: 'default', role: 1, acceptUnset: false, userSetting: {}, forced: undefined },
    price: { usePrice: false, modelPrice: -1, modelRatio: 1, completionRatio: 1, cacheRatio: 1, cacheCreationRatio: 1, groupRatio: 1, quotaPerUnit: 500_000 },
    clientHeaders: {},
    clientQuery: {},
    tried: [3],
    reservation: { id: 'r-1', amount: 100 },
  } as unknown as RelayCall;
}

const delivered = {
  channel: { id: 3 },
  usage: { promptTokens: 10, completionTokens: 20 },
  usageReported: true,
  isStream: false,
  firstResponseMs: 0,
  upstreamModel: 'gpt-4o-mini',
  isModelMapped: false,
  ending: 'complete',
  claudeUpstream: false,
} as unknown as Delivered;

describe('settleDelivered', () => {
  it('keeps the request body reachable only until it returns, not until the batch commits', async () => {
    let commit!: (result: SettleResult) => void;
    const settled: SettleItem[] = [];
    const adjusted: number[] = [];
    const rt = {
      ctx: { options: { bool: (key: string) => key === 'LogConsumeEnabled' } },
      auth: { adjustRemain: (_tokenId: number, delta: number) => void adjusted.push(delta) },
      ledger: {
        settle: (item: SettleItem) => {
          settled.push(item);
          return new Promise<SettleResult>((resolve) => (commit = resolve));
        },
      },
      metrics: undefined,
      log: { warn: () => undefined, error: () => undefined },
    } as unknown as RelayRuntime;

    let body: WeakRef<object> | undefined;
    (() => {
      const call = callWithBody({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(100_000) }] });
      body = new WeakRef(call.body);
      settleDelivered(rt, call, { id: 'r-1', amount: 100 }, delivered);
    })();
    expect(settled).toHaveLength(1);
    expect(settled[0]!.log?.model_name).toBe('gpt-4o-mini');

    // The settlement is still waiting for its batch: nothing may hold the call now.
    await nextTurn();
    gc();
    await nextTurn();
    gc();
    expect(body!.deref()).toBeUndefined();

    // The work after the commit still has what it needs: the token cache moves by the clamp.
    // 10 prompt + 20 completion tokens at ratio 1: 30 charged, so 70 of the 100 reserved go back.
    expect(adjusted).toEqual([70]);
    commit({ charged: 25, userQuotaAfter: 1000 });
    await nextTurn();
    expect(adjusted).toEqual([70, 5]);
  });
});
