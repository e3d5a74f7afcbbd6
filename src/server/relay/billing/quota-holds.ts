/**
 * Reservations held in memory, so a request whose user (and token) clearly has the money
 * calls upstream without a database write before it (issue "writes batched off the request
 * path"). The ledger learns each user's balance and each limited token's remaining quota from
 * every transaction it commits (read inside it), and while that figure is fresh it admits a
 * request in memory when everything this process holds for the payer, plus the new amount,
 * stays within HOLD_SHARE of it. Otherwise the request takes the journaled path (a database
 * reservation, group-committed), whose condition also counts what is held here — so one
 * process never admits more than the balance, whichever path each request took.
 *
 * A hold is released when its settlement commits (the charge is then in the balance the
 * same transaction read) or when the request fails (nothing was ever written). A crash loses
 * only holds, which took nothing: the books stay "quota taken = logs + open journal rows".
 * Several nodes each hold at most HOLD_SHARE of a figure at most FRESH_MS old; a payer
 * spending across many nodes at once near the end of the balance is caught by the journaled
 * path once the figure runs low, and a settlement never takes more than is left.
 */

/** How old a learned balance may be and still admit requests in memory. */
export const FRESH_MS = 2000;
/** Share of a learned balance one process may hold in memory at once. */
export const HOLD_SHARE = 0.5;

interface Book {
  /** The balance read from the database (undefined: not known). */
  known: number | undefined;
  knownAt: number;
  /** Sum of this process's open holds on it. */
  held: number;
}

export interface Hold {
  userId: number;
  /** A limited token's id (its remaining quota is held too), else 0. */
  tokenId: number;
  amount: number;
}

export class QuotaHolds {
  readonly #users = new Map<number, Book>();
  readonly #tokens = new Map<number, Book>();
  readonly #holds = new Map<string, Hold>();

  constructor(private readonly now: () => number = Date.now) {}

  #book(books: Map<number, Book>, id: number): Book {
    let book = books.get(id);
    if (!book) {
      book = { known: undefined, knownAt: 0, held: 0 };
      books.set(id, book);
    }
    return book;
  }

  #fits(book: Book | undefined, amount: number, now: number): boolean {
    if (!book || book.known === undefined || now - book.knownAt > FRESH_MS) return false;
    // At least one unit must be left, as the journaled path demands (`quota >= max(amount, 1)`).
    return book.known > 0 && book.held + Math.max(amount, 1) <= book.known * HOLD_SHARE;
  }

  /** Holds `amount` under `id` when the learned figures clearly cover it; false: use the journal. */
  tryHold(id: string, userId: number, tokenId: number, tokenLimited: boolean, amount: number): boolean {
    const now = this.now();
    const user = this.#users.get(userId);
    if (!this.#fits(user, amount, now)) return false;
    const limitedToken = tokenLimited && tokenId > 0 ? tokenId : 0;
    const token = limitedToken ? this.#tokens.get(limitedToken) : undefined;
    if (limitedToken && !this.#fits(token, amount, now)) return false;
    user!.held += amount;
    if (token) token.held += amount;
    this.#holds.set(id, { userId, tokenId: limitedToken, amount });
    return true;
  }

  /** Holds open now. */
  get size(): number {
    return this.#holds.size;
  }

  isHeld(id: string): boolean {
    return this.#holds.has(id);
  }

  /** A settlement charging more than was held: hold the larger amount until it commits. */
  grow(id: string, charge: number): void {
    const hold = this.#holds.get(id);
    if (!hold || charge <= hold.amount) return;
    const more = charge - hold.amount;
    hold.amount = charge;
    this.#book(this.#users, hold.userId).held += more;
    if (hold.tokenId) this.#book(this.#tokens, hold.tokenId).held += more;
  }

  release(id: string): void {
    const hold = this.#holds.get(id);
    if (!hold) return;
    this.#holds.delete(id);
    this.#book(this.#users, hold.userId).held -= hold.amount;
    if (hold.tokenId) this.#book(this.#tokens, hold.tokenId).held -= hold.amount;
  }

  /** What is held on a user (or limited token), leaving out the holds of `except` (settling now). */
  heldOnUser(userId: number, except?: ReadonlySet<string>): number {
    return this.#heldOn(this.#users, userId, (h) => h.userId === userId, except);
  }

  heldOnToken(tokenId: number, except?: ReadonlySet<string>): number {
    return this.#heldOn(this.#tokens, tokenId, (h) => h.tokenId === tokenId, except);
  }

  #heldOn(books: Map<number, Book>, id: number, mine: (h: Hold) => boolean, except?: ReadonlySet<string>): number {
    let held = books.get(id)?.held ?? 0;
    if (held > 0 && except) {
      for (const holdId of except) {
        const hold = this.#holds.get(holdId);
        if (hold && mine(hold)) held -= hold.amount;
      }
    }
    return held;
  }

  /** Figures read inside a committed transaction (which also committed the holds released with it). */
  learnUser(userId: number, quota: number, at = this.now()): void {
    const book = this.#book(this.#users, userId);
    book.known = quota;
    book.knownAt = at;
  }

  learnToken(tokenId: number, remain: number, at = this.now()): void {
    const book = this.#book(this.#tokens, tokenId);
    book.known = remain;
    book.knownAt = at;
  }

  /** Drops the books nobody holds anything on (keeps the maps small on a long-running node). */
  prune(): void {
    const now = this.now();
    for (const books of [this.#users, this.#tokens]) {
      for (const [id, book] of books) if (book.held === 0 && now - book.knownAt > FRESH_MS) books.delete(id);
    }
  }
}
