/**
 * List columns: one variant per renderer (`renderer`, default `text`), each carrying only the
 * options its renderer reads, so an option given to the wrong renderer does not compile.
 * The console draws each variant with the renderer of the same name (src/web/crud/renderers.tsx).
 */
import type { BodyValue, ColorSteps, Conditions, EnumValue, JsonPath, Scalar } from './common';
import type { Label } from './label';

/** What every column has, whatever its renderer. */
interface ColumnBase {
  /** Record field; also the column key saved in the column chooser. */
  field: string;
  titleKey: Label;
  width?: number;
  /** False: always shown, not offered in the column chooser. Default true. */
  hideable?: boolean;
  /** Hidden until the user picks it in the column chooser. */
  defaultHidden?: boolean;
  /** Lowest role that sees the column (admin-only columns). */
  minRole?: number;
  /** Rows where this holds show an empty cell (a tag row has no channel id). */
  hideWhen?: Conditions;
  /** Cut long content to the column's `width` (needed) with an ellipsis, the whole value in a tooltip. */
  ellipsis?: boolean;
  /**
   * Shown only in windows at least this wide (antd breakpoints: `xl` 1200 px, `xxl` 1600 px),
   * so the columns that matter fit a narrower window without a horizontal scrollbar.
   */
  showFrom?: 'md' | 'lg' | 'xl' | 'xxl';
}

/** A renderer without options of its own. */
interface PlainColumn<R extends string> extends ColumnBase {
  renderer: R;
}

/** The value as text (the default renderer). */
interface TextColumnOptions extends ColumnBase {
  renderer?: 'text';
  /** Shown beneath the value in grey (a user's display name). */
  secondaryField?: string;
  /** Adds a copy icon. */
  copyable?: boolean;
}

/** An enum value as a tag from `values`; `status` adds a dot. */
export interface EnumColumn extends ColumnBase {
  renderer: 'enum' | 'status';
  values: Record<string, EnumValue>;
  /** Shown for a value not in `values` (default: a grey "unknown"). */
  unknown?: EnumValue;
}

/** Unix seconds (or ISO text) as `YYYY-MM-DD HH:mm:ss`. */
export interface TimestampColumn extends ColumnBase {
  renderer: 'timestamp';
  /** The stored unit (default seconds). */
  unit?: 's' | 'ms';
  /** This value means "never" (-1), shown as `neverKey` (default: a generic "never"). */
  neverValue?: number;
  neverKey?: Label;
}

/** One tag of a `stat-tags` column: another field of the record. */
export interface StatTagItem {
  field: string;
  labelKey: Label;
  format: 'quota' | 'number';
  color?: string;
  /** A quota shown as "unlimited" (never a number) on rows where this boolean field is true. */
  unlimitedField?: string;
}

/** Several fields of the record, one tag each. */
export interface StatTagsColumn extends ColumnBase {
  renderer: 'stat-tags';
  items: StatTagItem[];
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

/** An editable number saved at once (channel priority and weight). */
export interface InlineNumberColumn extends ColumnBase {
  renderer: 'inline-number';
  inlineEdit: InlineEditDef;
}

/** Like `status`, with per-row `cases` and a tooltip saying why (a disabled channel's reason). */
export interface StatusDetailColumn extends ColumnBase {
  renderer: 'status-detail';
  values: Record<string, EnumValue>;
  unknown?: EnumValue;
  /** The first case whose condition holds on the row wins over `values`. */
  cases?: { when: Conditions; value: EnumValue }[];
  /** The tooltip's text and time, read from JSON fields of the row. */
  reasonPath?: JsonPath;
  reasonTimePath?: JsonPath;
  /** The tooltip shows only for these values (default all). */
  reasonFor?: Scalar[];
}

/** Seconds coloured by `colors`, with the stream flag and the first-token time. */
export interface LatencyColumn extends ColumnBase {
  renderer: 'latency';
  colors?: ColorSteps;
  /** The boolean field saying whether the request streamed. */
  streamField?: string;
  /** First-token time in milliseconds, and its colours (in seconds). */
  firstTokenPath?: JsonPath;
  firstTokenColors?: ColorSteps;
}

/** `end - start` of two fields of the row, green or red. */
export interface DurationColumn extends ColumnBase {
  renderer: 'duration';
  startField: string;
  endField: string;
  /** The stored unit (default seconds). */
  unit?: 's' | 'ms';
  /** Seconds above which the value is red (default 60). */
  redAbove?: number;
}

/** A percent as a circle (default) or a bar, anything else as text. */
export interface ProgressColumn extends ColumnBase {
  renderer: 'progress';
  shape?: 'circle' | 'line';
}

/** A link opening the record as JSON (`record`) or the value as text (`text`) in a dialog. */
export interface JsonDialogColumn extends ColumnBase {
  renderer: 'json-dialog';
  /** Default `text`. */
  dialog?: 'record' | 'text';
  /** Shown for an empty value, instead of a dash. */
  emptyKey?: Label;
}

/** A value read from a JSON text field; lists joined by `join` (default `, `). */
export interface JsonPathColumn extends ColumnBase {
  renderer: 'json-path';
  /** Default: the column's `field`. */
  jsonPath?: JsonPath;
  join?: string;
  /** Shown for an empty value, instead of a dash. */
  emptyKey?: Label;
}

/** A key shown masked with `prefix` (`sk-`), revealed on demand, copied whole. */
export interface SecretColumn extends ColumnBase {
  renderer: 'secret';
  prefix?: string;
}

/** The value; administrators click it for the user's balance and usage. */
export interface UserInfoColumn extends ColumnBase {
  renderer: 'user-info';
  /** The field holding the user id (default `user_id`). */
  idField?: string;
}

/** The value formatted in a tag; a click runs the row action `actionKey` (refresh a balance). */
export interface ActionTagColumn extends ColumnBase {
  renderer: 'action-tag';
  actionKey: string;
  format?: 'quota' | 'number' | 'currency';
  /** A second, read-only tag before the clickable one. */
  leading?: { field: string; labelKey: Label; format: 'quota' | 'number'; color?: string };
  /** A tooltip `timeKey` ({{time}}) with the unix time in `timeField`, when set (a balance's reading). */
  timeField?: string;
  timeKey?: Label;
}

/** A comma list as tags, at most `maxTags` (default 3), the rest in a tooltip. */
export interface ListTagsColumn extends ColumnBase {
  renderer: 'list-tags';
  maxTags?: number;
}

/**
 * The result of a music task, from its `data` field (the upstream Suno payload as JSON
 * text): each clip's title with a player and a link opening the audio in a new tab, or a
 * button opening the lyrics. Only http(s) URLs are shown.
 */
export interface TaskResultColumn extends ColumnBase {
  renderer: 'task-result';
  /** Shown when nothing is readable, instead of a dash. */
  emptyKey?: Label;
}

/** Every column with a renderer named. */
type NamedColumn =
  | EnumColumn
  | TimestampColumn
  | StatTagsColumn
  | InlineNumberColumn
  | StatusDetailColumn
  | LatencyColumn
  | DurationColumn
  | ProgressColumn
  | JsonDialogColumn
  | JsonPathColumn
  | SecretColumn
  | UserInfoColumn
  | ActionTagColumn
  | ListTagsColumn
  | TaskResultColumn
  /** A localised number. */
  | PlainColumn<'number'>
  /** The user role names (1, 10, 100, otherwise unknown). */
  | PlainColumn<'role'>
  /** One tag per comma-separated group name. */
  | PlainColumn<'group'>
  /** Quota units shown as currency or raw per the public status. */
  | PlainColumn<'quota'>
  /** Milliseconds as a badge in seconds coloured by speed, 0 = untested; the test time in a tooltip. */
  | PlainColumn<'response-time'>
  /** A channel type id as its name (src/shared/channel-types.ts). */
  | PlainColumn<'channel-type'>
  /** The name, or for a tag aggregate row (`children`) the tag and its size. */
  | PlainColumn<'tag-children'>
  /** A URL as a previewable thumbnail (http(s) or this origin only). */
  | PlainColumn<'image'>
  /** A colour-by-value tag; a click copies the value. */
  | PlainColumn<'id-tag'>;

type KeysOf<U> = U extends unknown ? keyof U : never;

/**
 * A text column. `renderer` may be left out, and TypeScript only checks the options of a union
 * member it can pick by its discriminant: so the other renderers' options are named here as
 * never given, which makes `{ field, titleKey, prefix: 'sk-' }` (a forgotten `renderer`) an error.
 */
export type TextColumn = TextColumnOptions & { [K in Exclude<KeysOf<NamedColumn>, keyof TextColumnOptions>]?: never };

/** A list column: its renderer's variant. */
export type ColumnDef = TextColumn | NamedColumn;

/** The renderer names (`text` when a column names none). */
export type RendererName = NonNullable<ColumnDef['renderer']>;

/** The column variant a renderer draws. */
export type ColumnOf<R extends RendererName> = R extends 'text' ? TextColumn : NamedColumn extends infer C ? (C extends { renderer: infer N } ? (R extends N ? C : never) : never) : never;
