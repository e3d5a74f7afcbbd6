/**
 * The epay signature, the same in both directions (docs/wallet.md#epay-signature): every parameter except
 * `sign` and `sign_type`, empty values dropped, keys sorted ascending, joined as
 * `k1=v1&k2=v2` with raw values, the merchant key appended directly, MD5 in lowercase hex.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export type EpayParams = Record<string, string>;

export function epaySign(params: EpayParams, merchantKey: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createHash('md5')
    .update(text + merchantKey, 'utf8')
    .digest('hex');
}

/** Whether `params.sign` is the signature of the other parameters, compared in constant time. */
export function epaySignatureValid(params: EpayParams, merchantKey: string): boolean {
  const given = Buffer.from((params.sign ?? '').toLowerCase(), 'utf8');
  const expected = Buffer.from(epaySign(params, merchantKey), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
