import type { Kysely, Transaction } from 'kysely';
import type { Database } from './tables';

/** The database or an open transaction: repository functions take either, so they run inside transactions too. */
export type Executor = Kysely<Database> | Transaction<Database>;
