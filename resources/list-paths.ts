/**
 * The list path of every resource of `index.ts`, in its order, apart from the declarations:
 * the first page (sign-in most often) needs to know which screens exist (the navigation,
 * where a sign-in lands) but not their columns, forms and schemas, which load with the
 * signed-in screens. Keep in step with `index.ts` (`src/web/routes.test.ts` compares them).
 */
export const RESOURCE_LIST_PATHS: readonly string[] = ['/token', '/log', '/midjourney', '/task', '/channel', '/redemption', '/user', '/audit'];
