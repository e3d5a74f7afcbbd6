/**
 * How /api reads JSON request bodies: the one rule for fields a body does not know, and
 * what an empty JSON body means.
 *
 * Lenient bodies, strict values. The reference's JSON binder ignores fields it does not
 * know, and its clients rely on that: its console sends whole records back (with the
 * fields of the reply it read), later consoles send fields of later versions
 * (`original_password`), scripts send what they have. So an object schema that lists its
 * fields (`additionalProperties: false`) drops every other field before a handler sees the
 * body: never an error, never stored. The fields it does list keep every type, range and
 * length check, with their messages.
 *
 * Every schema validator of /api compiles with these options: the body checkers (record
 * schemas of schemas/entities in plumbing/entity-schema.ts, route-local schemas in
 * plumbing/body-checker.ts) and Fastify's, which checks querystrings and path params (app.ts).
 */
import type { FastifyInstance } from 'fastify';

/**
 * AJV options of every request-body validator. `removeAdditional: true` deletes the fields
 * an `additionalProperties: false` schema does not list; schemas without that keyword
 * (querystrings, whose paging fields are read outside the schema) are left as they are.
 */
export const BODY_VALIDATION_OPTIONS = { removeAdditional: true, coerceTypes: false, allErrors: false } as const;

/**
 * `Content-Type: application/json` with an empty body is no body: HTTP clients that always
 * set the header send that on bodiless POST and DELETE calls (`/api/channel/fix`,
 * `/api/option/rest_model_ratio`, `DELETE /api/log/`), which the reference answers as if
 * there were no header. Every other body is parsed by Fastify's own JSON parser
 * (prototype-poisoning protection included); a route that needs a body still refuses a
 * missing one through its validator.
 */
export function acceptEmptyJsonBodies(scope: FastifyInstance): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body, done);
  });
}
