/**
 * Who may read `/metrics`: off unless METRICS_TOKEN or METRICS_ALLOW_IPS is set; with a token,
 * a scrape must send it as `Authorization: Bearer <token>`; with an allow-list, it must come
 * from one of its addresses or CIDR ranges (the client address as TRUSTED_PROXIES reads it).
 * With both set, both must pass. The metrics name channels, models and volumes: never public.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import { compileAllowList, type IpAllowList } from '../services/tokens/ip-allow-list';

export function metricsEnabled(config: Config): boolean {
  return config.metricsToken !== '' || config.metricsAllowIps.length > 0;
}

/** A refusal: its status and message (the same words whatever was wrong, nothing about the token). */
export interface MetricsRefusal {
  status: 401 | 403;
  message: string;
}

export const MISSING_TOKEN: MetricsRefusal = { status: 401, message: '指标接口需要有效的访问令牌（Authorization: Bearer <METRICS_TOKEN>）' };
export const ADDRESS_REFUSED: MetricsRefusal = { status: 403, message: '您的 IP 不在指标接口允许访问的列表中（METRICS_ALLOW_IPS）' };

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export class MetricsAccess {
  /** Digest of the token (compared in constant time, whatever the length sent). */
  readonly #token: Buffer | undefined;
  readonly #allowed: IpAllowList | undefined;

  /** `metricsAllowIps` was checked when the configuration was read (config.ts). */
  constructor(config: Pick<Config, 'metricsToken' | 'metricsAllowIps'>) {
    this.#token = config.metricsToken ? digest(config.metricsToken) : undefined;
    this.#allowed = compileAllowList(config.metricsAllowIps.join('\n'));
  }

  /** undefined: the scrape may read; else why not. The address is checked first (a stranger learns nothing of the token). */
  check(authorization: string | undefined, clientIp: string): MetricsRefusal | undefined {
    if (this.#allowed && !this.#allowed.allows(clientIp)) return ADDRESS_REFUSED;
    if (this.#token) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match || !timingSafeEqual(digest(match[1]!), this.#token)) return MISSING_TOKEN;
    }
    return undefined;
  }
}
