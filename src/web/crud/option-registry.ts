/**
 * Option lists the console provides by name (`{kind: 'registry', name}`), for selects whose
 * choices are code, not a server reply: the channel types of src/shared/channel-types.ts.
 */
import { CHANNEL_TYPES } from '../../shared/channel-types';
import type { SelectOption } from './options-source';

type Registry = (language: 'zh' | 'en') => SelectOption[];

const REGISTRY: Record<string, Registry> = {
  /** Every current channel type (legacy ones stay readable in lists, but are not offered). */
  'channel-types': (language) => CHANNEL_TYPES.filter((t) => !t.legacy).map((t) => ({ value: t.id, label: language === 'zh' ? (t.label ?? t.name) : t.name })),
};

export function registryOptions(name: string, language: 'zh' | 'en'): SelectOption[] {
  return REGISTRY[name]?.(language) ?? [];
}
