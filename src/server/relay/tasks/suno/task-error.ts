/**
 * The Suno routes' error shape (docs/relay.md#error-shapes): `{code, message, data}` with the
 * error's own HTTP status; an upstream 429's text becomes the reference's saturation notice.
 */
export class SunoError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  body(): { code: string; message: string; data: null } {
    const message = this.status === 429 ? '当前分组上游负载已饱和，请稍后再试' : this.message;
    return { code: this.code, message, data: null };
  }
}

export function invalidRequest(message: string): SunoError {
  return new SunoError(400, 'invalid_request', message);
}
