/**
 * What every route module and service receives: configuration, the database, the optional
 * Redis connection and the long-lived services. Built once in app.ts.
 */
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { DialectName } from './db/connect';
import type { Database } from './db/tables';
import type { OptionsService } from './services/options/options.service';
import type { CodeStore } from './services/accounts/code-store';
import type { RateLimiter } from './plumbing/rate-limit';
import type { RedisLink } from './plumbing/redis-link';
import type { ChangeHub } from './plumbing/change-events';
import type { QuotaDataAggregator } from './services/dashboard/quota-data.aggregator';
import type { AuditTrail } from './services/audit/audit.trail';

export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  dialect: DialectName;
  /** Present when REDIS_CONN_STRING is set (its commands fail fast while Redis is down). */
  redis?: Redis;
  /** The connection's state: whether Redis answers now, and `up` after an outage. */
  redisLink?: RedisLink;
  options: OptionsService;
  /** Change signals between this node's caches and, through Redis, other nodes'. */
  changes: ChangeHub;
  rateLimiter: RateLimiter;
  /** Hourly usage per user and model, written to quota_data in batches (the dashboard). */
  quotaData: QuotaDataAggregator;
  /** Mailed verification codes and reset tokens (Redis-backed when Redis is configured). */
  codes: CodeStore;
  /** The audit log of administrative changes (written in the background). */
  audit: AuditTrail;
  /** Unix seconds when this process started. */
  startTime: number;
}
