/** Builds successful envelopes; failures are thrown as AppError and wrapped by the error handler. */
import type { Envelope } from '../../shared/api/envelope';

export function ok<T>(data?: T, message = ''): Envelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}
