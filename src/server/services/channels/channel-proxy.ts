/**
 * The way out for a channel's calls outside the relay (balances, model lists): through the
 * proxy its setting names, on the relay's proxy dispatchers, else direct. A stored address
 * that cannot be used is refused with its reason, never bypassed.
 */
import type { Dispatcher } from 'undici';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { relayOf } from '../../relay/runtime';
import { proxyOfSetting, ProxyUrlError } from '../../relay/upstream/proxy-url';

function parsedSetting(setting: string | null | undefined): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(setting || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The dispatcher for a channel with this `setting` text; undefined: undici's default (direct). */
export function channelDispatcher(ctx: AppContext, setting: string | null | undefined): Dispatcher | undefined {
  const proxy = proxyOfSetting(parsedSetting(setting));
  if (!proxy) return undefined;
  const relay = relayOf(ctx);
  if (!relay) throw new AppError('relay not running');
  try {
    return relay.pools.proxyDispatcher(proxy);
  } catch (err) {
    if (err instanceof ProxyUrlError) throw new AppError(err.message, 400);
    throw err;
  }
}
