/**
 * A cluster worker's side of the IPC channel to its primary (cluster/primary.ts): change
 * signals for the sibling workers' caches, and the mailed codes, which the primary keeps so
 * that any worker accepts a code another one sent. Used only without Redis (with Redis, both
 * go through Redis as between nodes on different hosts). The metrics' messages (every worker's
 * figures gathered for one scrape) are here too; metrics/cluster.ts sends and answers them.
 *
 * Every message carries the tag CLUSTER_TAG so that other IPC traffic (Node's own cluster
 * messages, a process manager's) is left alone.
 */
import type { CodePurpose, CodeStore } from '../services/accounts/code-store';
import type { SiblingChannel, WireChange } from '../plumbing/change-events';

export const CLUSTER_TAG = 'switchyard';

/** A change for the other workers (worker → primary → workers). */
export interface ChangeMessage {
  tag: typeof CLUSTER_TAG;
  kind: 'change';
  change: WireChange;
}

export type CodeOperation = 'put' | 'matches' | 'consume';

/** A code store call the primary answers (worker → primary). */
export interface CodeRequest {
  tag: typeof CLUSTER_TAG;
  kind: 'codes';
  id: number;
  op: CodeOperation;
  purpose: CodePurpose;
  email: string;
  code: string;
  ttlSeconds: number;
}

/** Its answer (primary → worker); `error` when the primary could not run it. */
export interface CodeReply {
  tag: typeof CLUSTER_TAG;
  kind: 'codes-reply';
  id: number;
  result: boolean;
  error?: string;
}

/** A scrape landed on a worker: it asks the primary for every worker's figures, added up (worker → primary). */
export interface MetricsCollect {
  tag: typeof CLUSTER_TAG;
  kind: 'metrics-collect';
  id: number;
}

/** The added-up exposition text, or why there is none (primary → the worker that asked). */
export interface MetricsCollected {
  tag: typeof CLUSTER_TAG;
  kind: 'metrics-collected';
  id: number;
  text?: string;
  error?: string;
}

/** The primary asks a worker for its own figures (primary → every worker). */
export interface MetricsRequest {
  tag: typeof CLUSTER_TAG;
  kind: 'metrics-request';
  id: number;
}

/** A worker's figures as prom-client's `getMetricsAsJSON` gives them (worker → primary). */
export interface MetricsReport {
  tag: typeof CLUSTER_TAG;
  kind: 'metrics-report';
  id: number;
  metrics?: unknown[];
  error?: string;
}

export type ClusterMessage = ChangeMessage | CodeRequest | CodeReply | MetricsCollect | MetricsCollected | MetricsRequest | MetricsReport;

export function isClusterMessage(value: unknown): value is ClusterMessage {
  return typeof value === 'object' && value !== null && (value as { tag?: unknown }).tag === CLUSTER_TAG && typeof (value as { kind?: unknown }).kind === 'string';
}

/** Sends to the primary; a closed channel (the primary is gone, this worker is stopping) drops it. */
export function toPrimary(message: ClusterMessage): void {
  if (!process.send || !process.connected) return;
  process.send(message, undefined, undefined, () => undefined);
}

/** The sibling workers of this one, through the primary. */
export function siblingWorkers(): SiblingChannel {
  return {
    send: (change) => toPrimary({ tag: CLUSTER_TAG, kind: 'change', change }),
    listen: (listener) => {
      const onMessage = (message: unknown) => {
        if (isClusterMessage(message) && message.kind === 'change') listener(message.change);
      };
      process.on('message', onMessage);
      return () => void process.off('message', onMessage);
    },
  };
}

/** How long a worker waits for the primary's answer (it answers from memory, within a millisecond). */
const CODE_REPLY_TIMEOUT_MS = 3000;

/** The codes of every worker of this host, kept in the primary's memory. */
export class ClusterCodeStore implements CodeStore {
  #next = 0;
  readonly #pending = new Map<number, { resolve: (result: boolean) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }>();
  #listening = false;
  readonly #onMessage = (message: unknown) => {
    if (!isClusterMessage(message) || message.kind !== 'codes-reply') return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.error !== undefined) pending.reject(new Error(`cluster primary: ${message.error}`));
    else pending.resolve(message.result);
  };

  async put(purpose: CodePurpose, email: string, code: string, ttlSeconds: number): Promise<void> {
    await this.#call('put', purpose, email, code, ttlSeconds);
  }

  matches(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return this.#call('matches', purpose, email, code, 0);
  }

  consume(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return this.#call('consume', purpose, email, code, 0);
  }

  #call(op: CodeOperation, purpose: CodePurpose, email: string, code: string, ttlSeconds: number): Promise<boolean> {
    if (!process.send || !process.connected) return Promise.reject(new Error('cluster primary unreachable'));
    if (!this.#listening) {
      this.#listening = true;
      process.on('message', this.#onMessage);
    }
    const id = ++this.#next;
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error('cluster primary did not answer'));
      }, CODE_REPLY_TIMEOUT_MS);
      timer.unref();
      this.#pending.set(id, { resolve, reject, timer });
      toPrimary({ tag: CLUSTER_TAG, kind: 'codes', id, op, purpose, email, code, ttlSeconds });
    });
  }
}
