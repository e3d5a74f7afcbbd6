/**
 * The channel organisation takes the reference's column name, `open_ai_organization`, on
 * databases whose channels table our first migration made (as `openai_organization`), so
 * that the reference can open them too. The same idempotent step as the adoption of a
 * reference database (2026-11-21-000), run again once our own tables exist.
 */
import type { Kysely } from 'kysely';
import { adoptReferenceTables } from '../adopt-reference';
import type { MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await adoptReferenceTables(db, dialect);
}
