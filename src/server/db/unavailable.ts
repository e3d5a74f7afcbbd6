/**
 * Tells a database that is down or unreachable (connection refused, reset, terminated, timed
 * out, a pool that cannot get a connection, SQLite busy or locked past its timeout) from
 * every other failure. Such a request is answered 503 at once ("try again"), never 500: the
 * process stays up and the pools reconnect by themselves when the database is back.
 */

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/** PostgreSQL: admin shutdown, crash shutdown, cannot connect now, too many connections, query cancelled (timeout). */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '08000', '08003', '08006', '08001', '08004']);
/** MySQL / MariaDB client and server codes for lost or refused connections and lock waits. */
const MYSQL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
  'ER_CONNECTION_KILLED',
  'ER_QUERY_INTERRUPTED',
]);
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT']);
const MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|connection timeout|query read timeout|query inactivity timeout|query_timeout|cannot enqueue|pool is closed|server closed the connection|client has encountered a connection error|connect etimedout|terminating connection|connection is in closed state|connection lost/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code) || MYSQL_CODES.has(code) || SQLITE_CODES.has(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
  }
  return false;
}
