/**
 * prom-client, loaded when metrics are on (a registry is built or a cluster scrape is summed),
 * never at start: most nodes run with metrics off (plumbing/on-first-use.ts says why).
 */
import { packageOnFirstUse } from '../plumbing/on-first-use';

export type PromClient = typeof import('prom-client');

export const promClient = packageOnFirstUse<PromClient>('prom-client');
