/**
 * Keeps server-side fetches of URLs that users supplied away from this machine and its
 * network: loopback, private, link-local (cloud metadata at 169.254.169.254), unique-local,
 * carrier-grade NAT, multicast and unspecified addresses are refused. The check runs on the
 * addresses the name resolves to, at connect time (the agent's own lookup), so a name that
 * resolves to a public address when checked and a private one when used gains nothing.
 * A lookup is never made for a literal address: check those with `hasLiteralPrivateHost`
 * before connecting. `classifyHost` is the early check when a URL is saved.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { ConnectionOptions } from 'node:tls';
import { Agent } from 'undici';

/** ipaddr.js range names that are fine to reach; every other range is refused. */
const PUBLIC_RANGES = new Set(['unicast']);

/** Whether `address` (IPv4 or IPv6 text, IPv4-mapped IPv6 included) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return PUBLIC_RANGES.has(parsed.range());
}

export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
}

/** dns.lookup that fails for names resolving to any non-public address. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || list.length === 0) return callback(new PrivateAddressError(`refusing to connect to a non-public address (${hostname})`), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/** Whether `err` (or an error it wraps) is the refusal of `publicOnlyLookup`. */
export function isPrivateAddressError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof PrivateAddressError || (e as { code?: unknown }).code === 'EPRIVATEADDRESS') return true;
  }
  return false;
}

let agent: Agent | undefined;

/** An undici dispatcher whose connections only ever reach public addresses. */
export function publicOnlyAgent(): Agent {
  agent ??= makePublicOnlyAgent();
  return agent;
}

/** A new public-only dispatcher, trusting extra certificate authorities when given. */
export function makePublicOnlyAgent(connect: { ca?: ConnectionOptions['ca'] } = {}): Agent {
  return new Agent({ connect: { ...connect, lookup: publicOnlyLookup }, keepAliveTimeout: 10_000 });
}

/** Whether a URL's host is written as a literal non-public address (a quick check before any lookup). */
export function hasLiteralPrivateHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) && !isPublicAddress(host);
}

/** What a host name points at: only public addresses, some non-public one, or unknown (no answer). */
export type HostClass = 'public' | 'private' | 'unresolved';

/**
 * Classifies a URL's host (a name, or a literal address with or without IPv6 brackets) by
 * the addresses it resolves to now, waiting at most `timeoutMs` for DNS. For an early,
 * friendly refusal when a URL is saved; it proves nothing about later connections (DNS can
 * change), so connections still go through `publicOnlyLookup`.
 */
export async function classifyHost(hostname: string, timeoutMs = 2_000): Promise<HostClass> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return isPublicAddress(host) ? 'public' : 'private';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    const list = await Promise.race([dnsLookupAsync(host, { all: true }).catch(() => undefined), timeout]);
    if (!list || list.length === 0) return 'unresolved';
    return list.every((a) => isPublicAddress(a.address)) ? 'public' : 'private';
  } finally {
    clearTimeout(timer);
  }
}
