/**
 * The stored responses of `/v1/responses` (migration 2026-11-25-008-responses): what
 * `previous_response_id`, `GET` and `DELETE /v1/responses/{id}` read. Rows are scoped to the
 * token that made them; another token's id reads as unknown.
 *
 * Rows are written after the answer, without holding it up. A follow-up request may arrive
 * before the write committed (a client that chains at once): reads on this node first wait for
 * a pending write of the same id. Expired rows are swept by the writes themselves, at most once
 * a minute, so no timer is needed; reads ignore expired rows in the meantime.
 */
import type { JsonObject } from '../providers/common/json';
import type { RelayRuntime } from '../runtime';
import { nowSeconds } from '../../../shared/time';

/** What a converted response keeps: its conversation (input and output items) and the object. */
export interface StoredConversation {
  input: JsonObject[];
  output: JsonObject[];
  response: JsonObject;
}

export interface StoredResponse {
  id: string;
  tokenId: number;
  userId: number;
  /** 0: stored here (`data`); else the channel whose upstream stores it. */
  channelId: number;
  model: string;
  data: StoredConversation | undefined;
}

const SWEEP_EVERY_MS = 60_000;

export class ResponsesStore {
  readonly #pending = new Map<string, Promise<void>>();
  #lastSweep = 0;

  constructor(private readonly rt: RelayRuntime) {}

  /** Hours a response is kept (option ResponsesStoreHours); 0: nothing is stored. */
  hours(): number {
    const hours = this.rt.ctx.options.number('ResponsesStoreHours');
    return Number.isFinite(hours) && hours > 0 ? hours : 0;
  }

  /** Writes a row in the background; a failure is logged, never the client's problem. */
  save(row: StoredResponse): void {
    const hours = this.hours();
    if (hours === 0) return;
    const now = nowSeconds();
    const write = this.rt.ctx.db
      .insertInto('responses')
      .values({
        id: row.id,
        token_id: row.tokenId,
        user_id: row.userId,
        channel_id: row.channelId,
        model: row.model,
        data: row.data ? JSON.stringify(row.data) : null,
        created_at: now,
        expires_at: now + Math.round(hours * 3600),
      })
      .execute()
      .then(
        () => undefined,
        (err: unknown) => this.rt.log.warn(`response ${row.id} not stored: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => this.#pending.delete(row.id));
    this.#pending.set(row.id, write);
    this.#sweep(now);
  }

  /** The token's row of this id, unless expired. */
  async find(id: string, tokenId: number): Promise<StoredResponse | undefined> {
    await this.#pending.get(id);
    const row = await this.rt.ctx.db.selectFrom('responses').selectAll().where('id', '=', id).where('token_id', '=', tokenId).where('expires_at', '>', nowSeconds()).executeTakeFirst();
    if (!row) return undefined;
    let data: StoredConversation | undefined;
    if (row.data) {
      try {
        data = JSON.parse(row.data) as StoredConversation;
      } catch {
        data = undefined;
      }
    }
    return { id: row.id, tokenId: row.token_id, userId: row.user_id, channelId: Number(row.channel_id), model: row.model, data };
  }

  /** Deletes the token's row of this id; answers whether there was one. */
  async remove(id: string, tokenId: number): Promise<boolean> {
    await this.#pending.get(id);
    const result = await this.rt.ctx.db.deleteFrom('responses').where('id', '=', id).where('token_id', '=', tokenId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  #sweep(now: number): void {
    if (Date.now() - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = Date.now();
    void this.rt.ctx.db
      .deleteFrom('responses')
      .where('expires_at', '<=', now)
      .execute()
      .catch(() => undefined);
  }
}

const stores = new WeakMap<RelayRuntime, ResponsesStore>();

/** The store of one relay runtime (made on first use). */
export function responsesStore(rt: RelayRuntime): ResponsesStore {
  let store = stores.get(rt);
  if (!store) {
    store = new ResponsesStore(rt);
    stores.set(rt, store);
  }
  return store;
}
