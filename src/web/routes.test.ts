import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { RESOURCE_LIST_PATHS } from '../../resources/list-paths';
import { isRouted } from './routes';

describe('routed paths', () => {
  it('the light list of resource paths is every declared resource list, in order', () => {
    expect(RESOURCE_LIST_PATHS).toEqual(RESOURCES.map((r) => r.routes.list));
  });

  it('routes the pages and the resource lists, nothing else', () => {
    expect(isRouted('/login')).toBe(true);
    expect(isRouted('/channel')).toBe(true);
    expect(isRouted('/channel/add')).toBe(false);
    expect(isRouted('/nowhere')).toBe(false);
  });
});
