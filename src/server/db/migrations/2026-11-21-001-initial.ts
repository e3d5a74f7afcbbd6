/**
 * Every table the product needs, with the reference implementation's table and column
 * names, and an index for every list filter. Frozen: later changes go in new migrations.
 */
import type { Kysely } from 'kysely';
import { columns, createIndex, type MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const c = columns(dialect);

  await db.schema
    .createTable('users')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('username', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('password', 'varchar(255)', (col) => col.notNull().defaultTo(''))
    .addColumn('display_name', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('role', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('status', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('email', 'varchar(128)', (col) => col.notNull().defaultTo(''))
    .addColumn('github_id', 'varchar(128)', (col) => col.notNull().defaultTo(''))
    .addColumn('oidc_id', 'varchar(255)', (col) => col.notNull().defaultTo(''))
    .addColumn('wechat_id', 'varchar(128)', (col) => col.notNull().defaultTo(''))
    .addColumn('telegram_id', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('linux_do_id', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('access_token', 'varchar(64)', (col) => col.unique())
    .addColumn('quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('used_quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('request_count', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('group', 'varchar(64)', (col) => col.notNull().defaultTo('default'))
    .addColumn('aff_code', 'varchar(32)', (col) => col.unique())
    .addColumn('aff_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('aff_quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('aff_history', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('inviter_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('deleted_at', c.timestamp)
    .addColumn('setting', 'text')
    .execute();
  for (const cols of [['display_name'], ['email'], ['github_id'], ['oidc_id'], ['wechat_id'], ['telegram_id'], ['linux_do_id'], ['inviter_id'], ['deleted_at'], ['group']]) {
    await createIndex(db, dialect, 'users', cols);
  }

  await db.schema
    .createTable('options')
    .ifNotExists()
    .addColumn('key', 'varchar(191)', (col) => col.primaryKey())
    .addColumn('value', 'text')
    .execute();

  await db.schema
    .createTable('setups')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('version', 'varchar(50)', (col) => col.notNull())
    .addColumn('initialized_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('tokens')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('key', 'char(48)', (col) => col.notNull().unique())
    .addColumn('status', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('name', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('created_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('accessed_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('expired_time', 'bigint', (col) => col.notNull().defaultTo(-1))
    .addColumn('remain_quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('unlimited_quota', 'boolean', (col) => col.notNull().defaultTo(c.false))
    .addColumn('model_limits_enabled', 'boolean', (col) => col.notNull().defaultTo(c.false))
    .addColumn('model_limits', 'varchar(1024)', (col) => col.notNull().defaultTo(''))
    .addColumn('allow_ips', 'text')
    .addColumn('used_quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('group', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('deleted_at', c.timestamp)
    .execute();
  for (const cols of [['user_id', 'id'], ['name'], ['deleted_at']]) await createIndex(db, dialect, 'tokens', cols);

  await db.schema
    .createTable('channels')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('type', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('openai_organization', 'varchar(255)')
    .addColumn('test_model', 'varchar(255)')
    .addColumn('status', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('name', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('weight', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('test_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('response_time', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('base_url', 'varchar(1024)', (col) => col.notNull().defaultTo(''))
    .addColumn('other', 'text')
    .addColumn('balance', c.double, (col) => col.notNull().defaultTo(0))
    .addColumn('balance_updated_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('models', 'text')
    .addColumn('group', 'varchar(255)', (col) => col.notNull().defaultTo('default'))
    .addColumn('used_quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('model_mapping', 'text')
    .addColumn('status_code_mapping', 'varchar(1024)')
    .addColumn('priority', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('auto_ban', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('other_info', 'text')
    .addColumn('tag', 'varchar(191)')
    .addColumn('setting', 'text')
    .addColumn('param_override', 'text')
    .addColumn('max_input_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  for (const cols of [['name'], ['tag'], ['status'], ['priority'], ['type']]) await createIndex(db, dialect, 'channels', cols);

  await db.schema
    .createTable('abilities')
    .ifNotExists()
    .addColumn('group', 'varchar(64)', (col) => col.notNull())
    .addColumn('model', 'varchar(255)', (col) => col.notNull())
    .addColumn('channel_id', 'integer', (col) => col.notNull())
    .addColumn('enabled', 'boolean', (col) => col.notNull())
    .addColumn('priority', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('weight', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('tag', 'varchar(191)')
    .addPrimaryKeyConstraint('abilities_pk', ['group', 'model', 'channel_id'])
    .execute();
  for (const cols of [['channel_id'], ['priority'], ['weight'], ['tag'], ['model', 'enabled']]) await createIndex(db, dialect, 'abilities', cols);

  await db.schema
    .createTable('redemptions')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('user_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('key', 'char(32)', (col) => col.notNull().unique())
    .addColumn('status', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('name', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('quota', 'bigint', (col) => col.notNull().defaultTo(100))
    .addColumn('created_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('redeemed_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('used_user_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('deleted_at', c.timestamp)
    .execute();
  for (const cols of [['name'], ['deleted_at']]) await createIndex(db, dialect, 'redemptions', cols);

  await db.schema
    .createTable('logs')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('user_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('type', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('content', 'text')
    .addColumn('username', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('token_name', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('model_name', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('prompt_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('use_time', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('is_stream', 'boolean', (col) => col.notNull().defaultTo(c.false))
    .addColumn('channel_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('token_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('group', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('other', 'text')
    .execute();
  // Lists are filtered by time range (always) and optionally by user, type, token, model,
  // channel and group; each filter gets an index led by itself and followed by created_at.
  for (const cols of [
    ['created_at', 'type'],
    ['user_id', 'created_at'],
    ['type', 'created_at'],
    ['username', 'created_at'],
    ['token_name', 'created_at'],
    ['model_name', 'created_at'],
    ['channel_id', 'created_at'],
    ['token_id', 'created_at'],
    ['group', 'created_at'],
  ]) {
    await createIndex(db, dialect, 'logs', cols);
  }

  await db.schema
    .createTable('top_ups')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('amount', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('money', c.double, (col) => col.notNull().defaultTo(0))
    .addColumn('trade_no', 'varchar(191)', (col) => col.notNull().unique())
    .addColumn('create_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('status', 'varchar(32)', (col) => col.notNull().defaultTo('pending'))
    .execute();
  await createIndex(db, dialect, 'top_ups', ['user_id']);

  await db.schema
    .createTable('midjourneys')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('code', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('user_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('action', 'varchar(40)', (col) => col.notNull().defaultTo(''))
    .addColumn('mj_id', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('prompt', 'text')
    .addColumn('prompt_en', 'text')
    .addColumn('description', 'text')
    .addColumn('state', 'text')
    .addColumn('submit_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('start_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('finish_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('image_url', 'text')
    .addColumn('status', 'varchar(20)', (col) => col.notNull().defaultTo(''))
    .addColumn('progress', 'varchar(30)', (col) => col.notNull().defaultTo(''))
    .addColumn('fail_reason', 'text')
    .addColumn('channel_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('buttons', 'text')
    .addColumn('properties', 'text')
    .execute();
  for (const cols of [['user_id', 'submit_time'], ['mj_id'], ['channel_id', 'submit_time'], ['submit_time'], ['status'], ['progress'], ['action']]) {
    await createIndex(db, dialect, 'midjourneys', cols);
  }

  await db.schema
    .createTable('tasks')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('created_at', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('task_id', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('platform', 'varchar(30)', (col) => col.notNull().defaultTo(''))
    .addColumn('user_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('channel_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('action', 'varchar(40)', (col) => col.notNull().defaultTo(''))
    .addColumn('status', 'varchar(20)', (col) => col.notNull().defaultTo(''))
    .addColumn('fail_reason', 'text')
    .addColumn('submit_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('start_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('finish_time', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('progress', 'varchar(20)', (col) => col.notNull().defaultTo(''))
    .addColumn('properties', 'text')
    .addColumn('data', 'text')
    .execute();
  for (const cols of [['user_id', 'submit_time'], ['task_id'], ['channel_id', 'submit_time'], ['submit_time'], ['platform'], ['status'], ['progress'], ['action']]) {
    await createIndex(db, dialect, 'tasks', cols);
  }

  await db.schema
    .createTable('quota_data')
    .ifNotExists()
    .addColumn('id', c.id, (col) => c.autoId(col))
    .addColumn('user_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('username', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('model_name', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('token_used', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('count', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('quota', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  for (const cols of [['user_id', 'created_at'], ['created_at'], ['model_name', 'username'], ['username', 'created_at']]) {
    await createIndex(db, dialect, 'quota_data', cols);
  }
}
