/**
 * Midjourney-proxy's error shape (docs/relay.md#error-shapes): `{description, type, code}` with
 * HTTP 400 (429 for code 30). Request-level failures carry code 4, upstream transport
 * failures code 5, as the reference's constants say.
 */
export const MJ_REQUEST_ERROR = 4;
export const MJ_UNKNOWN_ERROR = 5;

export class MjError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly result = '',
  ) {
    super(description);
  }

  get status(): number {
    return this.code === 30 ? 429 : 400;
  }

  body(): { description: string; type: string; code: number } {
    return { description: `${this.description} ${this.result}`, type: 'upstream_error', code: this.code };
  }
}

export function mjRefuse(description: string): MjError {
  return new MjError(MJ_REQUEST_ERROR, description);
}
