/**
 * /api/openapi.json: a valid OpenAPI 3.1 document (checked by a maintained validator) that
 * covers every /api route the server registers, each with a schema, built from the schemas
 * that validate the routes (the entity files of schemas/entities included).
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';

describe('OpenAPI description of /api', () => {
  let s: TestServer;
  let doc: any;
  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0]!);
    const res = await fetch(`${s.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    doc = await res.json();
  });
  afterAll(async () => s?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every /api route, each registered with a schema', () => {
    const apiRoutes = s.app.routes.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
    // The console API is large: an empty catalogue would make the checks below pass vacuously.
    expect(apiRoutes.length).toBeGreaterThan(80);
    const missingSchema: string[] = [];
    const missingInDoc: string[] = [];
    const undeclaredParams: string[] = [];
    for (const route of apiRoutes) {
      for (const method of [route.method].flat()) {
        const name = `${method} ${route.url}`;
        if (!route.schema) missingSchema.push(name);
        const path = route.url.replace(/:(\w+)/g, '{$1}');
        if (!doc.paths[path]?.[method.toLowerCase()]) missingInDoc.push(name);
        // A path parameter must be described by a params schema.
        for (const [, param] of route.url.matchAll(/:(\w+)/g)) {
          const params = route.schema?.params as { properties?: Record<string, unknown> } | undefined;
          if (!params?.properties?.[param!]) undeclaredParams.push(`${name} (${param})`);
        }
      }
    }
    expect(missingSchema).toEqual([]);
    expect(missingInDoc).toEqual([]);
    expect(undeclaredParams).toEqual([]);
  });

  it('describes bodies with the entity schema files that check them', () => {
    const token = JSON.parse(readFileSync('schemas/entities/token.json', 'utf8'));
    const create = doc.paths['/api/token/'].post.requestBody.content['application/json'].schema;
    expect(create.properties.name.maxLength).toBe(token.properties.name.maxLength);
    expect(create.additionalProperties).toBe(false);
    // Annotations for the console and the checker stay out of the document.
    expect(JSON.stringify(create)).not.toContain('x-messages');
    const channel = JSON.parse(readFileSync('schemas/entities/channel.json', 'utf8'));
    const update = doc.paths['/api/channel/'].put.requestBody.content['application/json'].schema;
    expect(update.required).toEqual(['id']);
    expect(Object.keys(update.properties)).toEqual(expect.arrayContaining(['id', 'name', 'key', 'base_url']));
    expect(update.properties.name.maxLength).toBe(channel.properties.name.maxLength);
  });

  it('describes the querystring of lists and the fields of Fastify body schemas', () => {
    const search = doc.paths['/api/log/'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(search).toEqual(expect.arrayContaining(['query:p', 'query:page_size', 'query:username', 'query:model_name']));
    const login = doc.paths['/api/user/login'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(login.properties)).toEqual(expect.arrayContaining(['username', 'password']));
  });

  it('still answers a body refused by an entity checker with its own message', async () => {
    const root = await s.root();
    const tooLong = await root.post('/api/token/', { name: 'x'.repeat(31), remain_quota: 1 });
    expect(tooLong.status).toBe(200);
    expect(tooLong.body).toMatchObject({ success: false, message: '令牌名称过长' });
    const notObject = await root.post('/api/token/', [1, 2]);
    expect(notObject.status).toBe(400);
    expect(notObject.body.success).toBe(false);
  });
});
