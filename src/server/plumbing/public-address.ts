/**
 * Keeps server-side fetches of URLs that users supplied away from this machine and its
 * network: loopback, private, link-local (cloud metadata at 169.254.169.254), unique-local,
 * carrier-grade NAT, multicast and unspecified addresses are refused. The check runs on the
 * addresses the name resolves to, at connect time (the agent's own lookup), so a name that
 * resolves to a public address when checked and a private one when used gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
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

let agent: Agent | undefined;

/** An undici dispatcher whose connections only ever reach public addresses. */
export function publicOnlyAgent(): Agent {
  agent ??= new Agent({ connect: { lookup: publicOnlyLookup }, keepAliveTimeout: 10_000 });
  return agent;
}

/** Whether a URL's host is written as a literal non-public address (a quick check before any lookup). */
export function hasLiteralPrivateHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) && !isPublicAddress(host);
}
