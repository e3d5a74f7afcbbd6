/**
 * Stored Responses-API answers (issue #14): `previous_response_id`, `GET` and `DELETE
 * /v1/responses/{id}`. One row per response the relay answered, readable only by the token
 * that made it.
 *
 * - `channel_id` 0: a response converted here (Claude, Gemini, chat channels): `data` holds its
 *   input items, output items and the Response object, since no upstream remembers it.
 * - `channel_id` > 0: a response an OpenAI or Azure channel served and stores itself: the row
 *   only says where it lives, so reads, deletes and follow-ups go to that channel.
 *
 * `data` is a whole conversation: MySQL's `text` stops at 64 KB, so it is `longtext` there.
 * `expires_at` (unix seconds) is indexed for the sweep of expired rows.
 */
import { sql, type Kysely } from 'kysely';
import { createIndex, dropIndex, type MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .createTable('responses')
    .ifNotExists()
    .addColumn('id', 'varchar(128)', (col) => col.primaryKey())
    .addColumn('token_id', 'integer', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('channel_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('model', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('data', dialect === 'mysql' ? sql`longtext` : 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
  await createIndex(db, dialect, 'responses', ['expires_at']);
}

export async function down(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await dropIndex(db, dialect, 'responses', ['expires_at']);
  await db.schema.dropTable('responses').ifExists().execute();
}
