/** The pipeline's `stream` argument decides whether the upstream streams, whatever the body said. */
import type { JsonObject } from './json';

export function applyStreamFlag(body: JsonObject, stream: boolean): void {
  if (stream) body.stream = true;
  // `stream: false` says what the upstream does anyway; anything else not `true` goes.
  else if (body.stream !== undefined && body.stream !== false) delete body.stream;
}
