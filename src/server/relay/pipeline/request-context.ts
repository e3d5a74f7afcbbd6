/** The relay's per-request id, set when the request arrives (onRequest) and read by every step. */
import type { RelayRequest } from './exchange';
import { newRequestId } from '../request-id';

const ids = new WeakMap<RelayRequest, string>();

export function assignRequestId(request: RelayRequest): string {
  const id = newRequestId();
  ids.set(request, id);
  return id;
}

export function requestIdOf(request: RelayRequest): string {
  return ids.get(request) ?? assignRequestId(request);
}
