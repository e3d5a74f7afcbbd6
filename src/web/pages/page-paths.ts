/**
 * The paths of the hand-written pages, apart from their (lazily loaded) components, so
 * the navigation can know what exists without loading any page. Keep in step with
 * `pages/index.ts`.
 */
export const PAGE_PATHS = [
  '/',
  '/about',
  '/login',
  '/register',
  '/reset',
  '/user/reset',
  '/oauth/:provider',
  '/personal',
  '/setting',
  '/topup',
  '/pricing',
  '/playground',
  '/chat',
  '/chat/:id',
  '/chat2link',
  '/detail',
  '/api-reference',
] as const;

export type PagePath = (typeof PAGE_PATHS)[number];
