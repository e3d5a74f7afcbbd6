/**
 * The declaration vocabulary for the gateway screens (channels, tokens, redemption codes,
 * logs, drawing and music tasks), kept apart from the core vocabulary in `definition.ts`,
 * whose interfaces extend these. Still plain data: every behaviour is a name the console
 * registers once (renderers, field kinds, action kinds, option registries).
 */
import type { BodyValue, ConfirmDef, Conditions, EnumValue, FormDef, Scalar } from './definition';
import type { Label } from './label';

// ---------------------------------------------------------------- shared pieces

/** A colour by upper bound: the first step whose `max` is not exceeded wins, else `over`. */
export interface ColorSteps {
  steps: { max: number; color: string }[];
  over: string;
}

/** A value of a JSON text field: `other.frt` reads `frt` of the JSON in `other`. */
export type JsonPath = string;

// ---------------------------------------------------------------- columns

/**
 * Column options of the gateway renderers:
 * - `response-time`: milliseconds as a coloured badge in seconds (`colors`), 0 = untested.
 * - `channel-type`: a channel type id as its name (src/shared/channel-types.ts).
 * - `inline-number`: an editable number saved at once through `inlineEdit`.
 * - `tag-children`: the name, or for a tag aggregate row (`children`) the tag and its size.
 * - `status-detail`: like `status`, with `cases` and a tooltip from `reasonPath`/`reasonTimePath`.
 * - `latency`: seconds coloured by `colors`, with the stream flag and first-token time.
 * - `duration`: `end - start` (`startField`/`endField`, `unit`), red above 60 s.
 * - `progress`: a percent as a circle or bar, anything else as text.
 * - `image`: a URL as a previewable thumbnail.
 * - `json-dialog`: a link opening the record as JSON (`dialog: 'record'`) or the value as text.
 * - `json-path`: a value read from a JSON text field (`jsonPath`), lists joined by `join`.
 * - `secret`: a key shown masked with `prefix`, copyable.
 * - `id-tag`: a colour-by-value tag; a click copies the value.
 * - `user-info`: the value; admins click it for the user's balance and usage.
 * - `action-tag`: the value formatted (`format`) in a tag; a click runs the row action `actionKey`.
 * - `list-tags`: a comma list as tags (at most `maxTags`, the rest in a tooltip).
 */
export interface ColumnExtras {
  /** Lowest role that sees the column (admin-only columns). */
  minRole?: number;
  /** Rows where this holds show an empty cell (a tag row has no channel id). */
  hideWhen?: Conditions;
  /** `timestamp` and `duration`: the stored unit (default seconds). */
  unit?: 's' | 'ms';
  colors?: ColorSteps;
  /** `status-detail` / `enum`: the first case whose condition holds wins over `values`. */
  cases?: { when: Conditions; value: EnumValue }[];
  /** `status-detail`: tooltip text and time, read from JSON fields of the row. */
  reasonPath?: JsonPath;
  reasonTimePath?: JsonPath;
  /** `status-detail`: the tooltip shows only for these values. */
  reasonFor?: Scalar[];
  /** `latency`: the boolean field saying whether the request streamed. */
  streamField?: string;
  /** `latency`: first-token time in milliseconds, and its colours (seconds). */
  firstTokenPath?: JsonPath;
  firstTokenColors?: ColorSteps;
  /** `duration`. */
  startField?: string;
  endField?: string;
  /** `duration`: seconds above which the value is red. */
  redAbove?: number;
  /** `progress`. */
  shape?: 'circle' | 'line';
  /** `json-dialog`: what the dialog shows. */
  dialog?: 'record' | 'text';
  /** Shown for an empty value (`json-dialog`, `json-path`), instead of a dash. */
  emptyKey?: Label;
  jsonPath?: JsonPath;
  join?: string;
  /** `secret`. */
  prefix?: string;
  /** `user-info`: the field holding the user id. */
  idField?: string;
  /** `action-tag`. */
  actionKey?: string;
  format?: 'quota' | 'number' | 'currency';
  /** `action-tag`: a second, read-only tag before the clickable one. */
  leading?: { field: string; labelKey: Label; format: 'quota' | 'number'; color?: string };
  /** `action-tag`: a tooltip `timeKey` ({{time}}) with the unix time in `timeField`, when set (a balance's reading). */
  timeField?: string;
  timeKey?: Label;
  /** `list-tags`. */
  maxTags?: number;
  /** `inline-number`. */
  inlineEdit?: InlineEditDef;
  /** Cut long content to the column's `width` (needed) with an ellipsis, the whole value in a tooltip. */
  ellipsis?: boolean;
  /**
   * Shown only in windows at least this wide (antd breakpoints: `xl` 1200 px, `xxl` 1600 px),
   * so the columns that matter fit a narrower window without a horizontal scrollbar.
   */
  showFrom?: 'md' | 'lg' | 'xl' | 'xxl';
}

/**
 * An inline number editor: the first rule whose `when` holds for the row decides the
 * endpoint and body (`{input: 'value'}` is the entered number).
 */
export interface InlineEditDef {
  min?: number;
  max?: number;
  integer?: boolean;
  /** Shown when the entered value breaks min/max/integer. */
  invalidKey: Label;
  rules: { when?: Conditions; endpoint: string; body: Record<string, BodyValue> }[];
  successKey?: Label;
}

// ---------------------------------------------------------------- search

/** When a date-time filter starts: `today` (midnight) or `now`, moved by `offsetSeconds`. */
export interface TimeDefault {
  base: 'now' | 'today';
  offsetSeconds?: number;
}

export interface SearchFieldExtras {
  minRole?: number;
  /** `datetime`: the initial value; the filter is sent as unix seconds. */
  defaultTime?: TimeDefault;
}

// ---------------------------------------------------------------- forms

export interface FormFieldExtras {
  /** Buttons under `quota` and `number` inputs that set the value (`labelKey` or the formatted value). */
  presets?: { value: Scalar; labelKey?: Label }[];
  /** `switch`: the values stored for on and off (default true/false). */
  switchValues?: [Scalar, Scalar];
  /** A list widget whose value is sent as text joined by this separator (`a,b`). */
  joinWith?: string;
  /** Edit mode: the initial value comes from another record field, optionally split into a list. */
  initialFrom?: { field: string; split?: string };
  /**
   * The value is `key` of the JSON text field `field` (a channel's `setting.proxy`): read from
   * that text, written back into it as it changes, never sent on its own.
   */
  jsonKeyOf?: { field: string; key: string };
  /** The first hint whose condition holds on the form values replaces the label, placeholder or help. */
  hints?: { when: Conditions; labelKey?: Label; placeholderKey?: Label; helpKey?: Label }[];
  /** `json`: the message when the text does not parse. */
  jsonMessageKey?: Label;
  /**
   * `json`: an example value; a "fill template" button under the input replaces the text with
   * it, pretty-printed (a model mapping's `{"gpt-3.5-turbo": "gpt-3.5-turbo-0125"}`).
   */
  template?: Record<string, unknown>;
  /** `select`: when the source offers nothing, the select is disabled with this placeholder. */
  emptyOptionsKey?: Label;
  /** `model-picker`: the helper buttons offered. */
  pickerActions?: ('type-defaults' | 'all' | 'upstream' | 'clear' | 'custom')[];
  /** `expiry`: the message for text that is not `YYYY-MM-DD HH:mm:ss`. */
  invalidMessageKey?: Label;
}

// ---------------------------------------------------------------- actions

/**
 * Extra row action kinds:
 * - `copy`: copies `template` filled from the row (`{key}`), e.g. `sk-{key}`.
 * - `pick-request`: offers the values of the row's comma list `pickField`, then calls the
 *   endpoint with the picked one as query parameter `pickQuery` (test with a model).
 * - `dialog`: a form (`dialog`) prefilled from the row; its values are `{input: name}` in `body`.
 * - `duplicate`: reads the full record, sends it back to create without `omit` fields and
 *   with `{name}` + `nameSuffixKey`; `notFoundKey`/`failedKey` are its messages.
 * - `chat-link`: opens one of the saved chat links with the row's key inserted.
 */
export interface RowActionExtras {
  minRole?: number;
  /**
   * A role field of the row: the action is offered only when the signed-in user outranks the
   * row (or is root), as the server allows — an administrator gets no actions on other
   * administrators or on root.
   */
  viewerOutranks?: string;
  template?: string;
  pickField?: string;
  pickQuery?: string;
  pickTitleKey?: Label;
  dialog?: DialogDef;
  omit?: string[];
  nameSuffixKey?: Label;
  notFoundKey?: Label;
  failedKey?: Label;
  /** The reply's fields are given to `successKey` (test time, balance) besides the row's. */
  withReply?: boolean;
}

/** A form shown in a dialog by a `dialog` action. */
export interface DialogDef extends FormDef {
  titleKey: Label;
  /** Form field → row field whose value prefills it. */
  initialFrom?: Record<string, string>;
  /** Send only the fields the user changed; nothing changed shows `noChangeKey`. */
  changedOnly?: boolean;
  noChangeKey?: Label;
  /** Fields sent even when unchanged (the tag being edited). */
  alwaysSend?: string[];
}

export interface BatchActionExtras {
  minRole?: number;
  /** `copy`: each selected row as `template` (`{name}    sk-{key}`), one per line. */
  template?: string;
  /** `dialog`: the form asked before the call. */
  dialog?: DialogDef;
}

/** A button of the list's toolbar acting on the whole collection (test all, delete disabled). */
export interface ToolbarActionDef {
  key: string;
  kind: 'request';
  labelKey: Label;
  endpoint: string;
  body?: Record<string, BodyValue>;
  confirm?: ConfirmDef;
  danger?: boolean;
  minRole?: number;
  /** The success message; the reply's data is given as `{{data}}`. */
  successKey?: Label;
}

// ---------------------------------------------------------------- lists

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

// ---------------------------------------------------------------- expandable rows

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

export interface ResourceExtras {
  /** Rows open in place to show more (the usage log's billing breakdown). */
  expand?: ExpandDef;
  /** The collection path for administrators (logs, tasks): others use `api`. */
  adminApi?: string;
  toggles?: ListToggleDef[];
  stats?: StatsDef;
  toolbarActions?: ToolbarActionDef[];
  download?: DownloadDef;
  /** Rows that can be selected for batch actions (default all). */
  selectableWhen?: Conditions;
  /** A notice above the list. */
  banner?: { type: 'info' | 'warning'; textKey: Label };
  /** After a create whose reply is a list of strings, show them in a dialog to copy. */
  createdListTitleKey?: Label;
  /** No create/edit drawer route, and no column chooser when false. */
  columnChooser?: boolean;
  /** Page sizes offered (default 10, 20, 50, 100). */
  pageSizes?: number[];
}
