/**
 * Checkers for request bodies that are not a record of schemas/entities (sign-in, register,
 * an option, a user edit): a JSON Schema written next to its route, checked by the one rule of
 * every request body (plumbing/request-bodies.ts: unknown fields of an `additionalProperties:
 * false` schema dropped, known ones checked). Routes use them exactly like the entity checkers
 * of plumbing/entity-schema.ts: `checkedBody(check)` in the route options (api/route-schemas.ts),
 * `check(request.body)` first thing in the handler.
 *
 * A refusal is `400 无效的参数: <field> <why>` (`body <why>` for the body as a whole), the
 * words these routes have always answered; a missing body is checked as `null`.
 */
import { Ajv } from 'ajv';
import { AppError, MSG } from '../errors';
import type { BodyChecker } from './entity-schema';
import { BODY_VALIDATION_OPTIONS } from './request-bodies';

// Strict like the entity schemas: a misspelt keyword fails at start.
const ajv = new Ajv({ ...BODY_VALIDATION_OPTIONS, strict: true, strictTypes: false });

/** Compiles `jsonSchema`; the checker answers the body itself, unknown fields removed in place. */
export function schemaBodyChecker<T>(jsonSchema: Record<string, unknown>): BodyChecker<T> {
  const validate = ajv.compile(jsonSchema);
  const check = (body: unknown): T => {
    const value = body === undefined ? null : body;
    if (validate(value)) return value as T;
    const first = validate.errors?.[0];
    const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : 'body';
    throw new AppError(`${MSG.invalidParams}: ${where} ${first?.message ?? 'is invalid'}`, 400);
  };
  return Object.assign(check, { jsonSchema });
}
