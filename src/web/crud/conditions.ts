/**
 * Evaluates the declarations' data conditions (`visibleWhen`, `disabledWhen`) and builds
 * action bodies from their value references. Pure, so each rule is unit-tested.
 */
import type { BodyValue, Condition, Conditions, Scalar } from '../../shared/resources/common';

type Values = Record<string, unknown>;

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** Compares loosely across number/string, since route and form values arrive as either. */
function sameScalar(a: unknown, b: Scalar): boolean {
  if (a === b) return true;
  if (a === undefined || a === null || b === null) return false;
  return String(a) === String(b);
}

export function matchesCondition(condition: Condition, values: Values): boolean {
  const value = values[condition.field];
  if (condition.in && !condition.in.some((c) => sameScalar(value, c))) return false;
  if (condition.notIn && condition.notIn.some((c) => sameScalar(value, c))) return false;
  if (condition.present !== undefined && isSet(value) !== condition.present) return false;
  return true;
}

/** True when there is no condition, or every one holds. */
export function matches(conditions: Conditions | undefined, values: Values): boolean {
  if (!conditions) return true;
  const list = Array.isArray(conditions) ? conditions : [conditions];
  return list.every((c) => matchesCondition(c, values));
}

/** An action body: literals as they are, `{field}` from the row, `{selected}` from every selected row. */
export function buildBody(body: Record<string, BodyValue> | undefined, row: Values | undefined, selected: Values[] = []): Record<string, unknown> {
  return fillBody(body, { row, selected });
}

/** Where a body's references are read: the row, the selected rows, the values a dialog or cell asked for. */
export interface BodySources {
  row?: Values;
  selected?: Values[];
  inputs?: Values;
}

/** `buildBody` with every kind of reference, `{input}` included. */
export function fillBody(body: Record<string, BodyValue> | undefined, { row, selected = [], inputs = {} }: BodySources): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body ?? {})) {
    if (value !== null && typeof value === 'object' && 'field' in value) out[key] = row?.[value.field];
    else if (value !== null && typeof value === 'object' && 'selected' in value) out[key] = selected.map((r) => r[value.selected]);
    else if (value !== null && typeof value === 'object' && 'input' in value) out[key] = inputs[value.input];
    else out[key] = value;
  }
  return out;
}
