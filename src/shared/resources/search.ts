/** The search form above a list: one input per query parameter. */
import type { OptionSource } from './common';
import type { Label } from './label';

/** When a date-time filter starts: `today` (midnight) or `now`, moved by `offsetSeconds`. */
export interface TimeDefault {
  base: 'now' | 'today';
  offsetSeconds?: number;
}

export interface SearchFieldDef {
  /** Query parameter name sent to the list or search route. */
  field: string;
  /** `datetime` values are sent as unix seconds. */
  kind: 'text' | 'select' | 'number' | 'datetime';
  placeholderKey: Label;
  /** `select`: its options. */
  options?: OptionSource;
  width?: number;
  /** Lowest role that sees the input. */
  minRole?: number;
  /** `datetime`: the initial value. */
  defaultTime?: TimeDefault;
}

export interface SearchDef {
  /** Route used when any search value is set, relative to the resource's api (`search`). */
  path?: string;
  fields: SearchFieldDef[];
}
