/**
 * A real options store over a throw-away SQLite file, for unit tests of services that only
 * read options (and react to their changes) without starting a server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/server/config';
import { openDatabase, parseDsn } from '../../src/server/db/connect';
import { migrateToLatest } from '../../src/server/db/migrate';
import { loadOptionSchemas, OptionsService } from '../../src/server/services/options/options.service';

export interface OptionsStore {
  options: OptionsService;
  /** Stores a value as the settings page would (validated, announced). */
  set(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}

export async function openOptionsStore(): Promise<OptionsStore> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-options-'));
  const database = await openDatabase(parseDsn('', join(dir, 'options.db')), { maxConnections: 1 });
  await migrateToLatest(database.db, database.dialect);
  const options = new OptionsService(database.db, database.dialect, loadOptionSchemas(join(projectRoot(), 'schemas')));
  await options.start(0);
  return {
    options,
    set: (key, value) => options.setInternal(key, value),
    async close() {
      await options.stop();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
