/** The pipeline's `stream` argument decides whether the upstream streams, whatever the body said. */
import type { JsonObject } from './json';

export function applyStreamFlag(body: JsonObject, stream: boolean): void {
  if (stream) body.stream = true;
  else if (body.stream !== undefined) delete body.stream;
}
