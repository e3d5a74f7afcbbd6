/**
 * The pieces every part of a resource declaration uses: conditions on a record, where a
 * select's options come from, enum values, endpoints and request bodies. Plain data, like
 * the rest of the vocabulary (see `definition.ts`).
 */
import type { Label } from './label';

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

/** A colour by upper bound: the first step whose `max` is not exceeded wins, else `over`. */
export interface ColorSteps {
  steps: { max: number; color: string }[];
  over: string;
}

/** A value of a JSON text field: `other.frt` reads `frt` of the JSON in `other`. */
export type JsonPath = string;

/** A named call relative to the resource's api: `{method: 'post', path: 'manage'}`. */
export interface EndpointDef {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Relative path; `:id` is replaced by the record id. */
  path: string;
  /** Extra query parameters (`{status_only: 'true'}`). */
  query?: Record<string, string>;
}

/**
 * A body value: a literal, `{field}` (that field of the row), for batch actions `{selected}`
 * (that field of every selected row, as a list), or `{input}` (a value the user entered:
 * a dialog's field, an inline editor's `value`).
 */
export type BodyValue = Scalar | { field: string } | { selected: string } | { input: string };

/** Asked before an action runs. */
export interface ConfirmDef {
  titleKey: Label;
  contentKey?: Label;
}
