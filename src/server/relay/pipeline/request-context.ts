/** The relay's per-request id, set when the request arrives (onRequest) and read by every step. */
import type { FastifyRequest } from 'fastify';
import { newRequestId } from '../request-id';

const ids = new WeakMap<FastifyRequest, string>();

export function assignRequestId(request: FastifyRequest): string {
  const id = newRequestId();
  ids.set(request, id);
  return id;
}

export function requestIdOf(request: FastifyRequest): string {
  return ids.get(request) ?? assignRequestId(request);
}
