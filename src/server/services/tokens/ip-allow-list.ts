/**
 * A token's `allow_ips`: one entry per line, each an IPv4 or IPv6 address or a CIDR range
 * (the reference matches exact addresses only and silently drops ranges; we support both and
 * refuse a line that is neither, naming it). An empty list allows every address.
 */
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../errors';

type Family = 'ipv4' | 'ipv6';

interface Entry {
  address: string;
  family: Family;
  /** Absent for a single address. */
  prefix?: number;
}

/** The entries' lines: trimmed, blank lines dropped. */
function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

function familyOf(address: string): Family | undefined {
  const version = isIP(address);
  if (version === 4) return 'ipv4';
  if (version === 6 && !address.includes('%')) return 'ipv6';
  return undefined;
}

function parseEntry(line: string): Entry | undefined {
  const [address = '', prefixText, extra] = line.split('/');
  if (extra !== undefined) return undefined;
  const family = familyOf(address);
  if (!family) return undefined;
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > (family === 'ipv4' ? 32 : 128)) return undefined;
  return { address, family, prefix };
}

/** Whether one entry is an address or a CIDR range (configuration lists checked at start). */
export function isAllowListEntry(line: string): boolean {
  return parseEntry(line.trim()) !== undefined;
}

/** Checks every line; answers the list as stored (one trimmed entry per line). */
export function normaliseAllowIps(text: string): string {
  const entries = lines(text);
  for (const line of entries) {
    if (!parseEntry(line)) throw new AppError(`IP 白名单格式错误：${line}（每行一个 IP 地址或 CIDR 网段）`, 200, { allow_ips: line });
  }
  return entries.join('\n');
}

export interface IpAllowList {
  allows(clientIp: string): boolean;
}

/** The relay's matcher for a stored list; undefined when the list is empty (no restriction). */
export function compileAllowList(text: string | null | undefined): IpAllowList | undefined {
  const entries = lines(text ?? '')
    .map(parseEntry)
    .filter((e): e is Entry => e !== undefined);
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const e of entries) {
    if (e.prefix === undefined) list.addAddress(e.address, e.family);
    else list.addSubnet(e.address, e.prefix, e.family);
  }
  return {
    allows(clientIp) {
      // Dual-stack sockets report IPv4 clients as ::ffff:a.b.c.d.
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(clientIp)?.[1];
      const ip = mapped ?? clientIp;
      const family = familyOf(ip);
      return family !== undefined && list.check(ip, family);
    },
  };
}
