/**
 * Request ids in the reference's form (docs/relay.md#request-ids): local time `yyyyMMddHHmmss`, the
 * nanoseconds of the second, then 8 characters of [0-9a-zA-Z]. Sent as
 * `X-Oneapi-Request-Id` and appended to every relay error message.
 */
export const REQUEST_ID_HEADER = 'X-Oneapi-Request-Id';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Not a secret: Math.random is enough to tell requests of one nanosecond apart. */
function randomSuffix(): string {
  let out = '';
  for (let i = 0; i < 8; i++) out += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return out;
}

let stampSecond = -1;
let stampText = '';

/** `yyyyMMddHHmmss` of local time, formatted once per second. */
function stamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== stampSecond) {
    const now = new Date(ms);
    stampText = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
    stampSecond = second;
  }
  return stampText;
}

export function newRequestId(ms = Date.now()): string {
  const nanos = Number(process.hrtime.bigint() % 1_000_000_000n);
  return `${stamp(ms)}${nanos}${randomSuffix()}`;
}
