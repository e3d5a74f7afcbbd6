/**
 * Create/Edit forms and the forms of dialog actions: one variant per field kind (`kind`),
 * each carrying only the options its input reads, so an option given to the wrong kind does
 * not compile. The console draws each kind with the input of the same name
 * (src/web/crud/form-field.tsx).
 */
import type { SchemaMessage } from '../schema-messages';
import type { Conditions, OptionSource, Scalar } from './common';
import type { Label } from './label';

export type FormMode = 'create' | 'edit';

/** What every field has, whatever its kind. */
interface FieldBase {
  field: string;
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
  /** Shown (and sent) only while the form's values satisfy this. */
  visibleWhen?: Conditions;
  /** Initial value in create mode. */
  default?: unknown;
  /** Edit mode: the initial value comes from another record field, optionally split into a list. */
  initialFrom?: { field: string; split?: string };
  /**
   * The value is `key` of the JSON text field `field` (a channel's `setting.proxy`): read from
   * that text, written back into it as it changes, never sent on its own.
   */
  jsonKeyOf?: { field: string; key: string };
  /** The first hint whose condition holds on the form values replaces the label, placeholder or help. */
  hints?: { when: Conditions; labelKey?: Label; placeholderKey?: Label; helpKey?: Label }[];
}

/** Rules of a text value (from the record schema, see schema-constraints.ts). */
export interface TextRules {
  minLength?: number;
  maxLength?: number;
  /** The value must match this regular expression (the schema's `pattern`, Unicode). */
  pattern?: string;
  /** The field's own message when `pattern` fails (the schema's `x-messages.pattern`). */
  patternMessage?: SchemaMessage;
}

/** Rules of a number value (from the record schema, see schema-constraints.ts). */
export interface NumberRules {
  /** Bounds: a value outside them gets the field's error (the input never moves it silently). */
  min?: number;
  max?: number;
  /** The server's own words for a value out of bounds (the schema's `x-messages`). */
  rangeMessages?: { minimum?: SchemaMessage; maximum?: SchemaMessage };
  /** Whole numbers only. */
  integer?: boolean;
}

/**
 * One kind's rules marked absent on the others: rules are spread in from the schema
 * (`...textConstraintsOf(…)`), and a spread escapes TypeScript's check of unknown options,
 * so a rule on the wrong kind of field would otherwise compile and be ignored.
 */
type Without<R> = { [K in keyof R]?: never };
type NoRules = Without<TextRules> & Without<NumberRules>;

/** Buttons under the input that set the value (`labelKey`, or the value as the field shows it). */
type Presets = { value: Scalar; labelKey?: Label }[];

/** A one-line text (`text`) or a masked one (`password`). */
export interface TextFieldDef extends FieldBase, TextRules, Without<NumberRules> {
  kind: 'text' | 'password';
}

/** A several-line text. */
export interface TextareaFieldDef extends FieldBase, TextRules, Without<NumberRules> {
  kind: 'textarea';
  /** Default 4. */
  rows?: number;
}

export interface NumberFieldDef extends FieldBase, NumberRules, Without<TextRules> {
  kind: 'number';
  presets?: Presets;
}

/** An integer of quota units with its currency equivalent. */
export interface QuotaFieldDef extends FieldBase, NumberRules, Without<TextRules> {
  kind: 'quota';
  presets?: Presets;
  /** A button opens a dialog that adds a signed amount to the current value. */
  adjustDialog?: boolean;
}

/** A single select, or several values with `multiple`. */
export interface SelectFieldDef extends FieldBase, NoRules {
  kind: 'select';
  options: OptionSource;
  multiple?: boolean;
  /** With `multiple`: the value is sent as text joined by this separator (`a,b`). */
  joinWith?: string;
  /** When the source offers nothing, the select is disabled with this placeholder. */
  emptyOptionsKey?: Label;
}

export interface SwitchFieldDef extends FieldBase, NoRules {
  kind: 'switch';
  /** The values stored for on and off (default true/false). */
  switchValues?: [Scalar, Scalar];
}

/** A textarea whose content must parse as JSON (checked when the field is left). */
export interface JsonFieldDef extends FieldBase, NoRules {
  kind: 'json';
  /** Default 4. */
  rows?: number;
  /** The message when the text does not parse. */
  jsonMessageKey?: Label;
  /**
   * An example value; a "fill template" button under the input replaces the text with it,
   * pretty-printed (a model mapping's `{"gpt-3.5-turbo": "gpt-3.5-turbo-0125"}`).
   */
  template?: Record<string, unknown>;
}

/** A free list of strings. */
export interface TagsFieldDef extends FieldBase, NoRules {
  kind: 'tags';
  /** The value is sent as text joined by this separator (`a,b`). */
  joinWith?: string;
}

/** Shown, never sent. */
export interface ReadonlyFieldDef extends FieldBase, NoRules {
  kind: 'readonly';
}

/** The helper buttons of a model picker. */
export type ModelPickerAction = 'type-defaults' | 'all' | 'upstream' | 'clear' | 'custom';

/**
 * Where a model picker's helper buttons read models, and its texts. Each helper offered in
 * `actions` needs its source here.
 */
export interface ModelPickerDef {
  actions: ModelPickerAction[];
  /** `type-defaults`: GET `url`, an object of model lists keyed by the form's `typeField` value (default `defaultType`). */
  typeDefaults?: { url: string; typeField: string; defaultType: Scalar };
  /** `all`: GET, a list of `{ id }`. */
  allUrl?: string;
  /**
   * `upstream`: when editing, GET `editUrl` (`:id` is the record id); when creating, POST
   * `createUrl` with the first line of the form's `keyField` (refused with `keyNeededKey`
   * when empty) and the form's `fields` (a field's value, or the given one when unset).
   */
  upstream?: { editUrl: string; createUrl: string; keyField: string; keyNeededKey: Label; fields: Record<string, Scalar> };
  texts: {
    /** The label of each offered helper button (`custom`: the button adding the typed names). */
    buttons: Partial<Record<ModelPickerAction, Label>>;
    /** The input for custom names. */
    customPlaceholder?: Label;
    /** A custom name already listed. */
    duplicate?: Label;
    /** `upstream` answered; `{{count}}` models. */
    fetched?: Label;
    /** `upstream` failed; the error follows. */
    fetchFailed?: Label;
    /** `type-defaults` or `all` failed; the error follows. */
    loadFailed?: Label;
  };
}

/** A model list (a comma list) with helper buttons: type defaults, all, from upstream, clear, custom names. */
export interface ModelPickerFieldDef extends FieldBase, NoRules {
  kind: 'model-picker';
  /** The models offered in the select. */
  options?: OptionSource;
  picker: ModelPickerDef;
}

/** A unix time (-1 never) entered as `YYYY-MM-DD HH:mm:ss`, with presets. */
export interface ExpiryFieldDef extends FieldBase, NoRules {
  kind: 'expiry';
  /** Presets in seconds from now (-1: never). */
  presets?: Presets;
  /** The message for text that is not `YYYY-MM-DD HH:mm:ss`. */
  invalidMessageKey?: Label;
}

/** A form field: its kind's variant. */
export type FormFieldDef =
  TextFieldDef | TextareaFieldDef | NumberFieldDef | QuotaFieldDef | SelectFieldDef | SwitchFieldDef | JsonFieldDef | TagsFieldDef | ReadonlyFieldDef | ModelPickerFieldDef | ExpiryFieldDef;

export type FieldKind = FormFieldDef['kind'];

/** The field variant of a kind. */
export type FieldOf<K extends FieldKind> = FormFieldDef extends infer F ? (F extends { kind: infer N } ? (K extends N ? F : never) : never) : never;

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
