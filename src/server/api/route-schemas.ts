/**
 * Route schemas shared by /api modules, for what a route reads from its URL. Every /api route
 * declares a schema (tests/api/openapi.test.ts enforces it) so that /api/openapi.json
 * describes the whole console API from the schemas the routes are registered with.
 *
 * These schemas never refuse more than the handlers did before them: paging and id texts are
 * read leniently by parsePageRequest / parseIdParam with the product's own messages, so their
 * schemas here only describe them (no type: a repeated `?p=` is an array, still not refused).
 */
import type { FastifySchema, RouteShorthandOptions } from 'fastify';
import { PAGE_QUERY_FIELDS as PAGE_FIELDS } from '../../shared/api/envelope';

/** `?status_only=` of an update: the body is then only `id` and `status`. */
const STATUS_ONLY_QUERY = { description: 'Any value: change only the status (the body is then `id` and `status`)' } as const;

/** The querystring of an update that `?status_only=` turns into a status change. */
export const STATUS_ONLY_PUT: FastifySchema = { querystring: { type: 'object', properties: { status_only: STATUS_ONLY_QUERY } } };

/** A route that reads nothing from the request but its session. */
export const NO_INPUT: FastifySchema = {};

/** The querystring of a plain list. */
export const PAGE_QUERY: FastifySchema = { querystring: { type: 'object', properties: { ...PAGE_FIELDS } } };

/** A list with text filters read by queryText (first value of a repeated field). */
export function pageQueryWith(...fields: string[]): FastifySchema {
  const filters = describedFields(Object.fromEntries(fields.map((f) => [f, `Filter: ${f}`])));
  return { querystring: { ...filters, properties: { ...PAGE_FIELDS, ...filters.properties } } };
}

/**
 * Fields of a body or querystring its handler reads and checks itself (with the product's
 * messages): described, never refused here (no type, no required field).
 */
export function describedFields(fields: Record<string, string>): { type: 'object'; properties: Record<string, { description: string }> } {
  return { type: 'object', properties: Object.fromEntries(Object.entries(fields).map(([name, description]) => [name, { description }])) };
}

/** `/:id` of a record, read by parseIdParam (refusals carry the product's message). */
export const ID_PARAMS: FastifySchema = {
  params: { type: 'object', properties: { id: { type: 'string', description: 'Record id (a positive whole number)' } }, required: ['id'] },
};

/**
 * A body checker: answers the body the handler may use, or throws the refusal (AppError).
 * Built from a schemas/entities record (plumbing/entity-schema.ts `bodyValidator`), from a
 * JSON Schema next to its route (plumbing/body-checker.ts `schemaBodyChecker`), or by hand
 * where the reference answers bad bodies its own way (api/wallet); it carries the JSON
 * Schema it checks with, for /api/openapi.json.
 */
export interface DocumentedChecker {
  (body: unknown): unknown;
  jsonSchema: Record<string, unknown>;
}

/**
 * The one way an /api route takes a body: `...checkedBody(check)` in its options, then
 * `const body = check(request.body)` first thing in its handler (after the route's guards,
 * so a caller without the right session learns nothing about the body). The route declares
 * the checker's schema, so the document shows it, and Fastify's own validation is left out
 * so refusals are the checker's (the product's messages, some with 200 like business rules).
 * Several checkers: the handler picks one (by `?status_only=`); the body is one of theirs.
 * Other parts given in `schema` are descriptions only (like STATUS_ONLY_PUT), read by the
 * handler too.
 */
export function checkedBody(check: DocumentedChecker | DocumentedChecker[], schema: FastifySchema = {}): Pick<RouteShorthandOptions, 'schema' | 'validatorCompiler'> {
  const body = Array.isArray(check) ? { anyOf: check.map((c) => c.jsonSchema) } : check.jsonSchema;
  return { schema: { ...schema, body }, validatorCompiler: () => () => true };
}
