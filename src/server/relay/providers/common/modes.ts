import { ProviderRequestError, type RelayMode } from '../types';

/** Refuses a mode the provider (or the member serving this model) does not speak; `where` ends the message. */
export function assertModeIn(modes: ReadonlySet<RelayMode>, mode: RelayMode, where: string): void {
  if (!modes.has(mode)) throw new ProviderRequestError(`${mode} is not supported by ${where}`, 'not_supported');
}
