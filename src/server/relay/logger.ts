/** Fastify's logger fits: a message, or details and a message (never a secret in either). */
export interface RelayLogger {
  info(message: string): void;
  info(details: object, message: string): void;
  warn(message: string): void;
  warn(details: object, message: string): void;
  error(message: string): void;
  error(details: object, message: string): void;
}
