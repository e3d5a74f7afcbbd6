/**
 * Which console paths this build routes: the hand-written pages and every declared
 * resource's list. The navigation offers only routed screens. From the light path lists,
 * so the navigation does not load the resource declarations.
 */
import { RESOURCE_LIST_PATHS } from '../../resources/list-paths';
import { PAGE_PATHS } from './pages/page-paths';

const ROUTED = new Set<string>([...PAGE_PATHS, ...RESOURCE_LIST_PATHS]);

export function isRouted(path: string): boolean {
  return ROUTED.has(path);
}
