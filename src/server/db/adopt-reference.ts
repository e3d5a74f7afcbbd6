/**
 * Makes a database the reference made (new-api, or one-api, whose tables are older and
 * smaller) usable in place, and keeps it usable by the reference afterwards:
 *
 * - every column we read that its tables lack is added, with a default, so rows written by
 *   the reference stay valid for us and rows written by us stay valid for it;
 * - the channel organisation lives in the reference's own column, `open_ai_organization`
 *   (its ORM's name for the field): our older databases had it as `openai_organization`,
 *   which is renamed where it exists;
 * - a one-api token's model list (`models`) and subnets (`subnet`, comma separated) are copied
 *   once into the columns that hold them here, so a restricted token stays restricted.
 *
 * Nothing the reference created is dropped, renamed or retyped, and every step checks what
 * exists first, so it can run any number of times on SQLite, PostgreSQL and MySQL.
 */
import { sql, type ColumnDataType, type ColumnDefinitionBuilder, type Kysely, type RawBuilder } from 'kysely';
import { columns, columnsOf, type ColumnKit, type MigrationDialect } from './schema-helpers';

interface NeededColumn {
  name: string;
  type: (c: ColumnKit) => ColumnDataType | RawBuilder<unknown>;
  define?: (col: ColumnDefinitionBuilder, c: ColumnKit) => ColumnDefinitionBuilder;
}

const text = (): ColumnDataType => 'text';
const int = (): ColumnDataType => 'integer';
const big = (): ColumnDataType => 'bigint';
const bool = (): ColumnDataType => 'boolean';
const varchar = (n: number) => (): ColumnDataType => `varchar(${n})`;
const stamp = (c: ColumnKit): ColumnDataType => c.timestamp;
const zero = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(0);
const blank = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo('');
const off = (col: ColumnDefinitionBuilder, c: ColumnKit) => col.notNull().defaultTo(c.false);

/**
 * The columns a reference's tables may lack, by table (types and defaults as our first
 * migration makes them). new-api (2025) lacks only `channels.max_input_tokens`; one-api lacks
 * the rest. Tables it lacks entirely are created by our migrations as usual.
 */
const NEEDED: Record<string, NeededColumn[]> = {
  users: [
    { name: 'telegram_id', type: varchar(64), define: blank },
    { name: 'linux_do_id', type: varchar(64), define: blank },
    { name: 'oidc_id', type: varchar(255), define: blank },
    { name: 'aff_count', type: int, define: zero },
    { name: 'aff_quota', type: big, define: zero },
    { name: 'aff_history', type: big, define: zero },
    { name: 'deleted_at', type: stamp },
    { name: 'setting', type: text },
  ],
  tokens: [
    { name: 'model_limits_enabled', type: bool, define: off },
    // text, not varchar(1024): a one-api model list copied here may be longer.
    { name: 'model_limits', type: text },
    { name: 'allow_ips', type: text },
    { name: 'group', type: varchar(64), define: blank },
    { name: 'deleted_at', type: stamp },
  ],
  channels: [
    { name: 'open_ai_organization', type: varchar(255) },
    { name: 'test_model', type: varchar(255) },
    { name: 'other', type: text },
    { name: 'status_code_mapping', type: varchar(1024) },
    { name: 'auto_ban', type: int, define: (col) => col.notNull().defaultTo(1) },
    { name: 'other_info', type: text },
    { name: 'tag', type: varchar(191) },
    { name: 'setting', type: text },
    { name: 'param_override', type: text },
    { name: 'max_input_tokens', type: int, define: zero },
  ],
  abilities: [
    { name: 'weight', type: int, define: zero },
    { name: 'tag', type: varchar(191) },
  ],
  redemptions: [
    { name: 'used_user_id', type: int, define: zero },
    { name: 'deleted_at', type: stamp },
  ],
  logs: [
    { name: 'use_time', type: int, define: zero },
    { name: 'token_id', type: int, define: zero },
    { name: 'group', type: varchar(64), define: blank },
    { name: 'other', type: text },
  ],
};

/** Our name of the organisation column before it took the reference's. */
const OUR_OLD_ORGANIZATION = 'openai_organization';

export async function adoptReferenceTables(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const c = columns(dialect);
  for (const [table, needed] of Object.entries(NEEDED)) {
    const have = await columnsOf(db, dialect, table);
    if (have.size === 0) continue;
    if (table === 'channels' && have.has(OUR_OLD_ORGANIZATION) && !have.has('open_ai_organization')) {
      await db.schema.alterTable('channels').renameColumn(OUR_OLD_ORGANIZATION, 'open_ai_organization').execute();
      have.add('open_ai_organization');
    }
    for (const col of needed) {
      if (have.has(col.name)) continue;
      await db.schema
        .alterTable(table)
        .addColumn(col.name, col.type(c), (b) => (col.define ? col.define(b, c) : b))
        .execute();
      have.add(col.name);
      if (table === 'tokens') await carryOneApiTokenLimits(db, dialect, col.name, have);
    }
  }
}

/** Right after adding `model_limits` or `allow_ips` to a one-api tokens table: its own limits, copied. */
async function carryOneApiTokenLimits(db: Kysely<any>, dialect: MigrationDialect, added: string, have: Set<string>): Promise<void> {
  if (added === 'model_limits' && have.has('models')) {
    // `model_limits_enabled` comes first in NEEDED, so it exists by now.
    const on = dialect === 'sqlite' ? 1 : true;
    await sql`UPDATE tokens SET model_limits = models, model_limits_enabled = ${on} WHERE models IS NOT NULL AND models <> ''`.execute(db);
  }
  if (added === 'allow_ips' && have.has('subnet')) {
    await sql`UPDATE tokens SET allow_ips = REPLACE(subnet, ',', ${'\n'}) WHERE subnet IS NOT NULL AND subnet <> ''`.execute(db);
  }
}
