/**
 * Adopts a database the reference (new-api, one-api) made, before our first migration: its
 * tables get the columns we read (see adopt-reference.ts), so the indexes the first
 * migration creates find their columns. Named to sort first; on a database our earlier
 * versions made, it runs after the others (the migrator allows that) and finds little to do.
 */
import type { Kysely } from 'kysely';
import { adoptReferenceTables } from '../adopt-reference';
import type { MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await adoptReferenceTables(db, dialect);
}
