/**
 * The options store. The catalogue comes from schemas/options/*.json; values live in the
 * `options` table (key/value strings, as in the reference) and in memory. Every write is
 * validated against the key's schema before anything is stored, then saved, applied in
 * memory, and announced to other nodes through Redis when it is configured (each node also
 * reloads every SYNC_FREQUENCY seconds, so a missed message heals itself).
 */
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { buildCatalogue, optionTitle, publicValue, type Catalogue, type OptionDef, type OptionSection } from '../../../shared/options/catalogue';
import { OptionValidator } from '../../../shared/options/validator';
import { ROLE_ROOT } from '../../../shared/roles';
import { FORMAT_KEYWORDS, schemaMessage } from '../../../shared/schema-messages';
import type { DialectName } from '../../db/connect';
import type { Database } from '../../db/tables';
import { AppError, MSG } from '../../errors';
import type { ChangeHub } from '../../plumbing/change-events';

/** Reads every options schema file of a folder. */
export function loadOptionSchemas(schemasDir: string): OptionSection[] {
  const dir = join(schemasDir, 'options');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as OptionSection);
}

/** Whether a value turns its key on: `true` for a switch, anything but blank for a text. */
function switchedOn(text: string, def: OptionDef): boolean {
  return def.schema.type === 'boolean' ? text === 'true' : text.trim() !== '';
}

export interface OptionEntry {
  key: string;
  value: string;
}

/** Whether a secret key holds a value (its value itself is never returned). */
export interface SecretStatus {
  key: string;
  is_set: boolean;
}

export class OptionsService extends EventEmitter<{ change: [key: string, value: string] }> {
  readonly catalogue: Catalogue;
  readonly #values = new Map<string, string>();
  readonly #validator: OptionValidator;
  #unsubscribe?: () => void;
  #timer?: NodeJS.Timeout;
  /** Date.now() of the last full reload that succeeded (0: none yet); the metrics' cache age. */
  loadedAt = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    sections: OptionSection[],
    private readonly changes?: ChangeHub,
  ) {
    super();
    this.catalogue = buildCatalogue(sections);
    this.#validator = new OptionValidator(this.catalogue);
    for (const def of this.catalogue.keys.values()) this.#values.set(def.key, def.defaultText);
  }

  /**
   * Loads stored values and starts syncing. Defaults are never written: a key without a row
   * holds its schema default, so a database shared with the reference (or opened by it
   * later) keeps using each side's own built-in default for every key no admin has saved.
   */
  async start(syncSeconds: number): Promise<void> {
    await this.reload();
    if (this.changes) {
      // Other nodes' writes: the key they named, or everything (after a Redis outage).
      this.#unsubscribe = this.changes.onTopic('options', (change) => {
        if (!change.remote) return;
        void (change.key ? this.#reloadKey(change.key) : this.reload()).catch(() => undefined);
      });
      await this.changes.start();
    }
    if (syncSeconds > 0) {
      this.#timer = setInterval(() => void this.reload().catch(() => undefined), syncSeconds * 1000);
      this.#timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /** Loads every stored value, and the default of every key without a row (one reset elsewhere). */
  async reload(): Promise<void> {
    const rows = await this.db.selectFrom('options').select(['key', 'value']).execute();
    const stored = new Map(rows.map((row) => [row.key, row.value ?? '']));
    for (const def of this.catalogue.keys.values()) this.#apply(def.key, stored.get(def.key) ?? def.defaultText);
    this.loadedAt = Date.now();
  }

  async #reloadKey(key: string): Promise<void> {
    const def = this.catalogue.keys.get(key);
    if (!def) return;
    const row = await this.db.selectFrom('options').select(['key', 'value']).where('key', '=', key).executeTakeFirst();
    this.#apply(key, row ? (row.value ?? '') : def.defaultText);
  }

  #apply(key: string, value: string): void {
    const def = this.catalogue.keys.get(key);
    if (!def) return;
    // A stored value that breaks the schema (an old or hand-edited row) keeps the current one,
    // so readers can rely on every value having its key's type and shape.
    if (this.#validator.check(def, value)) return;
    if (this.#values.get(key) === value) return;
    this.#values.set(key, value);
    this.emit('change', key, value);
  }

  def(key: string): OptionDef | undefined {
    return this.catalogue.keys.get(key);
  }

  /** The stored text of a key (its default when never saved). */
  get(key: string): string {
    const value = this.#values.get(key);
    if (value === undefined) throw new Error(`unknown option key ${key}`);
    return value;
  }

  bool(key: string): boolean {
    return this.get(key) === 'true';
  }

  number(key: string): number {
    const n = Number(this.get(key));
    return Number.isFinite(n) ? n : 0;
  }

  /** A JSON option parsed; the default when the stored text does not parse. */
  json<T>(key: string): T {
    try {
      return JSON.parse(this.get(key)) as T;
    } catch {
      return JSON.parse(this.catalogue.keys.get(key)!.defaultText) as T;
    }
  }

  /** Lines of a list option, trimmed, blanks dropped. */
  lines(key: string): string[] {
    return this.get(key)
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  /**
   * What GET /api/option returns: every key except the secrets (x-secret), which are left
   * out as the reference leaves them out. A client that reads every option and writes each
   * one back (a script, the reference's console) therefore never sends a secret it did not
   * type, so no round trip can blank one; an empty field sent back would be stored as "".
   */
  list(): OptionEntry[] {
    return [...this.catalogue.keys.values()].filter((def) => !def.secret).map((def) => ({ key: def.key, value: this.get(def.key) }));
  }

  /** Every secret key and whether it holds a value (GET /api/option/secrets, for the console). */
  secretStatus(): SecretStatus[] {
    return [...this.catalogue.keys.values()].filter((def) => def.secret).map((def) => ({ key: def.key, is_set: this.get(def.key) !== '' }));
  }

  /** Every x-public key under its published name, typed. */
  publicValues(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const def of this.catalogue.keys.values()) {
      if (def.publicName) out[def.publicName] = publicValue(def, this.get(def.key));
    }
    return out;
  }

  /**
   * Checks a write and answers the text to store, or throws the message for the console.
   * Nothing is stored here.
   */
  validate(key: string, value: unknown, role: number): string {
    const def = this.catalogue.keys.get(key);
    if (!def) throw new AppError(`配置项不存在：${key}`);
    if (typeof value !== 'string') throw new AppError(MSG.invalidParams, 400);
    if (def.root && role < ROLE_ROOT) throw new AppError(MSG.forbidden);
    let text = value;
    if (def.schema['x-trim-trailing-slash']) text = text.replace(/\/+$/, '');
    const problem = this.#validator.check(def, text);
    if (problem?.kind === 'json') throw new AppError(`${optionTitle(def.schema, 'zh')}不是合法的 JSON 字符串`);
    // A value that is not of the key's type at all ('0x10' for an integer, 'yes' for a switch)
    // is a malformed request (400); a well-typed value breaking the key's rules (range,
    // enum, JSON shape) is a business refusal like the reference's (200, success false).
    // A value of the wrong form (an address that is not one) is refused with the key's own
    // message (`x-messages`) and 400, like a malformed entity field.
    const own = problem?.keyword ? schemaMessage(def.schema['x-messages']?.[problem.keyword], 'zh') : undefined;
    if (problem && own) throw new AppError(own, FORMAT_KEYWORDS.has(problem.keyword!) ? 400 : 200);
    if (problem) throw new AppError(`${MSG.invalidInput}${key}: ${problem.detail}`, problem.kind === 'type' ? 400 : 200);
    const req = def.schema['x-requires'];
    if (req && switchedOn(text, def) && this.get(req.key).trim() === '') throw new AppError(req.message);
    return text;
  }

  /**
   * Validates, stores, applies and announces one key. A write without a value (`undefined`:
   * the field was left out of the body) keeps a secret as it is, since GET never returned it
   * (the reference's console sends a secret it never loaded that way on every save of its
   * section), and stores "" for any other key.
   */
  async set(key: string, value: unknown, role: number): Promise<void> {
    const def = this.catalogue.keys.get(key);
    if (value === undefined && def?.secret) {
      if (def.root && role < ROLE_ROOT) throw new AppError(MSG.forbidden);
      return;
    }
    const text = this.validate(key, value === undefined ? '' : value, role);
    await this.#store(key, text);
  }

  /** Stores a key without role checks (server-side writes such as setup). Still validated. */
  async setInternal(key: string, value: string): Promise<void> {
    await this.#store(key, this.validate(key, value, ROLE_ROOT));
  }

  /** Back to the built-in default: the key's row goes, so nothing but the default is left to read. */
  async reset(key: string, role: number): Promise<void> {
    const def = this.catalogue.keys.get(key);
    if (!def) throw new AppError(`配置项不存在：${key}`);
    if (def.root && role < ROLE_ROOT) throw new AppError(MSG.forbidden);
    await this.db.deleteFrom('options').where('key', '=', key).execute();
    this.#apply(key, def.defaultText);
    this.changes?.emit('options', [], { key });
  }

  async #store(key: string, text: string): Promise<void> {
    const insert = this.db.insertInto('options').values({ key, value: text });
    if (this.dialect === 'mysql') await insert.onDuplicateKeyUpdate({ value: text }).execute();
    else await insert.onConflict((oc) => oc.column('key').doUpdateSet({ value: text })).execute();
    this.#apply(key, text);
    this.changes?.emit('options', [], { key });
  }
}
