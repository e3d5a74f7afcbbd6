import { describe, expect, it } from 'vitest';
import { groupOperations } from './openapi-view';

const doc = {
  openapi: '3.1.0',
  paths: {
    '/api/token/': {
      put: {
        tags: ['token'],
        parameters: [{ name: 'status_only', in: 'query', schema: { description: 'status only' } }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                anyOf: [
                  { type: 'object', properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string', maxLength: 30 } }, required: ['id'] },
                  { type: 'object', properties: { id: { type: 'integer' }, status: { type: 'integer', enum: [1, 2] } }, required: ['id', 'status'] },
                ],
              },
            },
          },
        },
      },
      get: { tags: ['token'], parameters: [{ name: 'p', in: 'query', schema: { description: 'Page number' } }] },
    },
    '/api/channel/{id}': { delete: { tags: ['channel'], parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } },
    '/api/status': { get: { tags: ['status'] } },
  },
};

describe('groupOperations', () => {
  const tags = groupOperations(doc);

  it('groups operations by tag, tags sorted, methods in a fixed order', () => {
    expect(tags.map((t) => t.tag)).toEqual(['channel', 'status', 'token']);
    expect(tags[2]!.operations.map((o) => o.key)).toEqual(['get /api/token/', 'put /api/token/']);
  });

  it('turns parameters and body fields into rows with their limits', () => {
    const del = tags[0]!.operations[0]!;
    expect(del.fields).toEqual([{ name: 'id', in: 'path', type: 'string', required: true, description: '', constraints: '' }]);
    const put = tags[2]!.operations[1]!;
    expect(put.fields).toEqual([{ name: 'status_only', in: 'query', type: 'any', required: false, description: 'status only', constraints: '' }]);
    expect(put.alternatives).toHaveLength(2);
    expect(put.alternatives[0]).toEqual([
      { name: 'id', in: 'body', type: 'integer', required: true, description: '', constraints: '1..' },
      { name: 'name', in: 'body', type: 'string', required: false, description: '', constraints: '≤ 30 chars' },
    ]);
    expect(put.alternatives[1]![1]).toMatchObject({ name: 'status', constraints: 'one of 1, 2', required: true });
  });

  it('shows an operation without input as having no fields, and survives a document without paths', () => {
    expect(tags[1]!.operations[0]).toMatchObject({ method: 'GET', path: '/api/status', fields: [], alternatives: [] });
    expect(groupOperations({})).toEqual([]);
    expect(groupOperations(null)).toEqual([]);
  });
});
