/**
 * What a list shows around its rows: switches above it, a strip of totals, a download, and
 * rows that open to show a detail model.
 */
import type { Conditions } from './common';
import type { Label } from './label';

/** A switch above the list that adds `param=true` to every list query. */
export interface ListToggleDef {
  param: string;
  labelKey: Label;
  /** Locally remembered under this key (`id-sort`). */
  storageKey?: string;
}

/** A strip of totals over the current filters (`GET <api><path>`). */
export interface StatsDef {
  path: string;
  items: { field: string; labelKey: Label; format: 'quota' | 'number'; color?: string }[];
}

/**
 * A download of the list's rows under its current filters (`GET <api><path>`, a streamed
 * file), with the bytes received shown while it runs.
 */
export interface DownloadDef {
  path: string;
  labelKey: Label;
  /** Shown while downloading; the bytes received so far are given as `{{size}}`. */
  progressKey: Label;
  doneKey: Label;
  failedKey: Label;
  /** The file name when the reply names none. */
  fileName: string;
}

/** Row detail models the console registers by name (src/web/crud/row-detail.tsx). */
export type RowDetailName = 'log-billing';

/** One labelled line of a row's expanded detail. */
export interface DetailItem {
  /** Names the line among the others (stable across languages). */
  key: string;
  label: Label;
  value: string;
}

/** How a detail model formats what depends on the site's display settings. */
export interface DetailFormat {
  quota: (quota: number) => string;
}

/** A row that opens to show a named detail model, on rows where `when` holds (default all). */
export interface ExpandDef {
  detail: RowDetailName;
  when?: Conditions;
}
