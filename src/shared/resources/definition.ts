/**
 * The vocabulary of a resource declaration (`resources/*.ts`): plain data that the console's
 * generic List screen and Create/Edit drawer render. No React, no functions: renderers,
 * field kinds and action kinds are names looked up in registries in `src/web/crud/`.
 * Every text (the `…Key` fields) is a `Label`: a locale key for shared words
 * (`crud.actions.edit`), or the text itself in both languages (`{ zh: '名称', en: 'Name' }`)
 * for words only this declaration uses (see `label.ts`). Never a sentence in one language.
 */

import type { BatchActionExtras, ColumnExtras, FormFieldExtras, ResourceExtras, RowActionExtras, SearchFieldExtras } from './extras';
import type { SchemaMessage } from '../schema-messages';
import type { Label } from './label';

export type { Bilingual, Label } from './label';

/** A value a condition can compare with. */
export type Scalar = string | number | boolean | null;

/**
 * A test on one field of a record (or of the form's current values). Every given clause
 * must hold: `in` (value is one of), `notIn` (value is none of), `present` (value is set:
 * not null, undefined or ''; `false` tests the opposite).
 */
export interface Condition {
  field: string;
  in?: Scalar[];
  notIn?: Scalar[];
  present?: boolean;
}

/** One condition, or several that must all hold. */
export type Conditions = Condition | Condition[];

/** Where a select's options come from. */
export type OptionSource =
  | { kind: 'static'; options: { value: Scalar; labelKey: Label; color?: string }[] }
  /**
   * GET `url` (an /api path); the reply's data is a list of strings, a list of objects
   * (`valueField`/`labelField`, default `value`/`label`), or an object whose keys are the values.
   */
  | { kind: 'fetch'; url: string; valueField?: string; labelField?: string }
  /** A list the console provides by name (`channel-types`). */
  | { kind: 'registry'; name: string };

/** How the enum-like renderers show one value. */
export interface EnumValue {
  labelKey: Label;
  /** An antd tag colour (`green`, `red`, `blue` ...). */
  color?: string;
}

// ---------------------------------------------------------------- list columns

/**
 * Column renderers:
 * - `text`: the value; `secondaryField` is shown beneath in grey; `copyable` adds a copy icon.
 * - `number`: a localised number.
 * - `enum` / `status`: a tag from `values` (`unknown` for anything else); `status` adds a dot.
 * - `role`: the user role names (1, 10, 100, otherwise unknown).
 * - `group`: one tag per comma-separated group name.
 * - `quota`: quota units shown as currency or raw per the public status.
 * - `timestamp`: unix seconds (or ISO text) as `YYYY-MM-DD HH:mm:ss`; `neverValue` shows `neverKey`.
 * - `stat-tags`: several fields of the record, one tag each (`items`).
 */
export type RendererName =
  | 'text'
  | 'number'
  | 'enum'
  | 'status'
  | 'role'
  | 'group'
  | 'quota'
  | 'timestamp'
  | 'stat-tags'
  // the gateway renderers, see ColumnExtras in extras.ts
  | 'response-time'
  | 'channel-type'
  | 'inline-number'
  | 'tag-children'
  | 'status-detail'
  | 'latency'
  | 'duration'
  | 'progress'
  | 'image'
  | 'json-dialog'
  | 'json-path'
  | 'secret'
  | 'id-tag'
  | 'user-info'
  | 'action-tag'
  | 'list-tags'
  /**
   * The result of a music task, from its `data` field (the upstream Suno payload as JSON
   * text): each clip's title with a player and a link opening the audio in a new tab, or a
   * button opening the lyrics. Only http(s) URLs are shown; nothing readable shows `emptyKey`.
   */
  | 'task-result';

export interface StatTagItem {
  field: string;
  labelKey: Label;
  format: 'quota' | 'number';
  color?: string;
  /** A quota shown as "unlimited" (never a number) on rows where this boolean field is true. */
  unlimitedField?: string;
}

export interface ColumnDef extends ColumnExtras {
  /** Record field; also the column key saved in the column chooser. */
  field: string;
  titleKey: Label;
  renderer?: RendererName;
  /** For `enum` / `status`. */
  values?: Record<string, EnumValue>;
  unknown?: EnumValue;
  /** For `text`. */
  secondaryField?: string;
  copyable?: boolean;
  /** For `timestamp`: this value means "never" (e.g. -1). */
  neverValue?: number;
  neverKey?: Label;
  /** For `stat-tags`. */
  items?: StatTagItem[];
  width?: number;
  /** False: always shown, not offered in the column chooser. Default true. */
  hideable?: boolean;
  /** Hidden until the user picks it in the column chooser. */
  defaultHidden?: boolean;
}

// ---------------------------------------------------------------- search

export interface SearchFieldDef extends SearchFieldExtras {
  /** Query parameter name sent to the list or search route. */
  field: string;
  /** `datetime` values are sent as unix seconds. */
  kind: 'text' | 'select' | 'number' | 'datetime';
  placeholderKey: Label;
  options?: OptionSource;
  width?: number;
}

export interface SearchDef {
  /** Route used when any search value is set, relative to the resource's api (`search`). */
  path?: string;
  fields: SearchFieldDef[];
}

// ---------------------------------------------------------------- forms

/**
 * Form field kinds: `text`, `password`, `number`, `quota` (an integer of quota units with its
 * currency equivalent, optionally with the add-a-signed-amount dialog), `select` (single, or
 * several with `multiple`), `switch`, `textarea`, `json` (a textarea whose content must parse
 * as JSON), `tags` (free list of strings), `readonly` (shown, never sent).
 */
export type FieldKind =
  | 'text'
  | 'password'
  | 'number'
  | 'quota'
  | 'select'
  | 'switch'
  | 'textarea'
  | 'json'
  | 'tags'
  | 'readonly'
  /** A model list with helper buttons (type defaults, all, from upstream, custom names). */
  | 'model-picker'
  /** A unix time (-1 never) entered as `YYYY-MM-DD HH:mm:ss`, with presets. */
  | 'expiry';

export type FormMode = 'create' | 'edit';

export interface FormFieldDef extends FormFieldExtras {
  field: string;
  kind: FieldKind;
  labelKey: Label;
  placeholderKey?: Label;
  helpKey?: Label;
  /** Shown only in these modes (default both). */
  modes?: FormMode[];
  /** Key into `form.groups`; ungrouped fields come first. */
  group?: string;
  required?: boolean;
  /** Message when a required field is empty (default: a generic "required" text). */
  requiredMessageKey?: Label;
  minLength?: number;
  maxLength?: number;
  /** Bounds: a value outside them gets the field's error (the input never moves it silently). */
  min?: number;
  max?: number;
  /** The server's own words for a value out of bounds (the schema's `x-messages`). */
  rangeMessages?: { minimum?: SchemaMessage; maximum?: SchemaMessage };
  /** A text value must match this regular expression (the schema's `pattern`, Unicode). */
  pattern?: string;
  /** The field's own message when `pattern` fails (the schema's `x-messages.pattern`). */
  patternMessage?: SchemaMessage;
  /** Integer numbers only (number and quota). */
  integer?: boolean;
  options?: OptionSource;
  multiple?: boolean;
  /** Shown (and sent) only while the form's values satisfy this. */
  visibleWhen?: Conditions;
  /** Initial value in create mode. */
  default?: unknown;
  /** For `quota`: a button opens a dialog that adds a signed amount to the current value. */
  adjustDialog?: boolean;
  /** For `textarea` and `json`. */
  rows?: number;
}

export interface FormGroupDef {
  key: string;
  titleKey: Label;
}

export interface FormDef {
  groups?: FormGroupDef[];
  fields: FormFieldDef[];
  /** Drawer width in pixels on wide screens (full width on phones). */
  width?: number;
}

// ---------------------------------------------------------------- actions

/** A named call relative to the resource's api: `{method: 'post', path: 'manage'}`. */
export interface EndpointDef {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Relative path; `:id` is replaced by the record id. */
  path: string;
  /** Extra query parameters (`{status_only: 'true'}`). */
  query?: Record<string, string>;
}

/**
 * A body value: a literal, `{field}` (that field of the row), or, for batch actions,
 * `{selected}` (that field of every selected row, as a list).
 */
export type BodyValue = Scalar | { field: string } | { selected: string } | { input: string };

export interface ConfirmDef {
  titleKey: Label;
  contentKey?: Label;
}

/**
 * Row action kinds: `edit` opens the edit drawer; `request` calls a named endpoint with
 * `body`; `status` sends a status-only update (`PUT <api>?status_only=true {id, status}`);
 * `delete` calls `DELETE <api><id>`.
 */
export interface RowActionDef extends RowActionExtras {
  key: string;
  kind: 'edit' | 'request' | 'status' | 'delete' | 'copy' | 'pick-request' | 'dialog' | 'duplicate' | 'chat-link';
  labelKey: Label;
  endpoint?: string;
  body?: Record<string, BodyValue>;
  /** For `status`: the status to set. */
  status?: number;
  confirm?: ConfirmDef;
  danger?: boolean;
  visibleWhen?: Conditions;
  disabledWhen?: Conditions;
  /** Message after success (default: a generic "done"). */
  successKey?: Label;
  /** Shown in the row's "more" menu instead of as a button. */
  inMenu?: boolean;
}

/**
 * Batch action kinds: `request` calls a named endpoint with `body` (use `{selected: 'id'}`);
 * `copy` copies `field` of the selected rows, one per line.
 */
export interface BatchActionDef extends BatchActionExtras {
  key: string;
  kind: 'request' | 'copy' | 'dialog';
  labelKey: Label;
  endpoint?: string;
  body?: Record<string, BodyValue>;
  field?: string;
  confirm?: ConfirmDef;
  danger?: boolean;
  /** Message when nothing is selected. */
  emptySelectionKey: Label;
  successKey?: Label;
}

// ---------------------------------------------------------------- the resource

export interface ResourceDefinition extends ResourceExtras {
  /** Refine resource name; also the prefix of locally stored choices. */
  name: string;
  labelKey: Label;
  /** Icon name from the console's icon registry. */
  icon: string;
  /** The /api collection path, with its trailing slash (`/api/user/`). */
  api: string;
  /** Console routes: the list, and the drawer routes that open on top of it. */
  routes: { list: string; create?: string; edit?: string };
  /** Lowest role that sees and reaches the resource (1 user, 10 admin, 100 root). */
  minRole: number;
  search?: SearchDef;
  endpoints?: Record<string, EndpointDef>;
  columns: ColumnDef[];
  /** Absent: no create/edit drawer. */
  form?: FormDef;
  rowActions?: RowActionDef[];
  batchActions?: BatchActionDef[];
  /** Rows where this field is set are labelled deleted and offer no action. */
  softDelete?: { field: string; labelKey: Label };
  messages?: { created?: Label; updated?: Label };
  /** The create button's label (default: a generic "add"). */
  createLabelKey?: Label;
}

/** Identity helper that type-checks a declaration. */
export function defineResource(definition: ResourceDefinition): ResourceDefinition {
  return definition;
}
