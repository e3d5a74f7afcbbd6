/**
 * Which console paths this build routes: the hand-written pages and every declared
 * resource's list. The navigation offers only routed screens.
 */
import { RESOURCES } from '../../resources';
import { PAGE_PATHS } from './pages/page-paths';

const ROUTED = new Set<string>([...PAGE_PATHS, ...RESOURCES.map((r) => r.routes.list)]);

export function isRouted(path: string): boolean {
  return ROUTED.has(path);
}
