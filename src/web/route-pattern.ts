/** Whether a route pattern (`/chat/:id`) matches `pathname`, as react-router matches these simple patterns. */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean);
  const got = pathname.split('/').filter(Boolean);
  return want.length === got.length && want.every((segment, i) => segment.startsWith(':') || segment.toLowerCase() === got[i]!.toLowerCase());
}
