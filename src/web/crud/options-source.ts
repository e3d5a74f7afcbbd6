/** Turns an `OptionSource` reply into select options. Pure; see `use-options.ts`. */
import type { OptionSource } from '../../shared/resources/common';
import type { LabelT } from './use-label';

export interface SelectOption {
  value: string | number | boolean;
  label: string;
}

/**
 * A fetched reply may be a list of names, a list of objects (`valueField`/`labelField`) or
 * an object keyed by value (`{default: {...}, vip: {...}}`).
 */
export function fetchedOptions(data: unknown, source: Extract<OptionSource, { kind: 'fetch' }>): SelectOption[] {
  const valueField = source.valueField ?? 'value';
  const labelField = source.labelField ?? 'label';
  if (Array.isArray(data)) {
    return data.flatMap((item): SelectOption[] => {
      if (typeof item === 'string' || typeof item === 'number') return [{ value: item, label: String(item) }];
      if (item && typeof item === 'object') {
        const value = (item as Record<string, unknown>)[valueField];
        const label = (item as Record<string, unknown>)[labelField] ?? value;
        return value === undefined ? [] : [{ value: value as SelectOption['value'], label: String(label) }];
      }
      return [];
    });
  }
  if (data && typeof data === 'object') return Object.keys(data).map((key) => ({ value: key, label: key }));
  return [];
}

export function staticOptions(source: Extract<OptionSource, { kind: 'static' }>, t: LabelT): SelectOption[] {
  return source.options.map((o) => ({ value: o.value as SelectOption['value'], label: t(o.labelKey) }));
}
