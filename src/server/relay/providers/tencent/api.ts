/**
 * Tencent Hunyuan (type 23): the key is `AppId|SecretId|SecretKey`; every call is a POST of
 * the `ChatCompletions` action (API version 2023-09-01) to the endpoint's `/`, signed with
 * TC3-HMAC-SHA256 (sign.ts) over the body actually sent.
 */
import { ChannelKeyError } from '../types';

export const TENCENT_ACTION = 'ChatCompletions';
export const TENCENT_VERSION = '2023-09-01';
export const TENCENT_SERVICE = 'hunyuan';

export interface TencentKey {
  appId: string;
  secretId: string;
  secretKey: string;
}

export function tencentKey(key: string): TencentKey {
  const parts = key.trim().split('|');
  if (parts.length !== 3 || !/^\d+$/.test(parts[0]!) || !parts[1] || !parts[2]) {
    throw new ChannelKeyError('the Tencent channel key must be AppId|SecretId|SecretKey (AppId a number)');
  }
  return { appId: parts[0]!, secretId: parts[1]!, secretKey: parts[2]! };
}
