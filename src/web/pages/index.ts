/**
 * The hand-written pages by path, each loaded on first visit (its own chunk), with who may
 * open it. The record's type makes every path of `page-paths.ts` have exactly one page.
 * Public pages render outside refine (see `app.tsx`), so they must not use its hooks.
 * No React here: the entry preloads the page of the address it opens on (`screen-preload.ts`).
 */
import type { ComponentType } from 'react';
import { componentChunk, type Chunk } from '../chunks';
import type { PagePath } from './page-paths';

export type Access = 'public' | 'user' | 'admin';

export interface PageRoute {
  access: Access;
  component: Chunk<ComponentType>;
}

const page = componentChunk;

export const PAGES: Record<PagePath, PageRoute> = {
  '/': { access: 'public', component: page(() => import('./home/home-page'), 'HomePage') },
  '/about': { access: 'public', component: page(() => import('./about/about-page'), 'AboutPage') },
  '/login': { access: 'public', component: page(() => import('./account/login-page'), 'LoginPage') },
  '/register': { access: 'public', component: page(() => import('./account/register-page'), 'RegisterPage') },
  '/reset': { access: 'public', component: page(() => import('./account/reset-request-page'), 'ResetRequestPage') },
  '/user/reset': { access: 'public', component: page(() => import('./account/reset-confirm-page'), 'ResetConfirmPage') },
  '/oauth/:provider': { access: 'public', component: page(() => import('./account/oauth-callback-page'), 'OAuthCallbackPage') },
  '/personal': { access: 'user', component: page(() => import('./personal/personal-page'), 'PersonalPage') },
  '/setting': { access: 'admin', component: page(() => import('./settings/settings-page'), 'SettingsPage') },
  '/topup': { access: 'user', component: page(() => import('./wallet/wallet-page'), 'WalletPage') },
  '/pricing': { access: 'public', component: page(() => import('./pricing/pricing-page'), 'PricingPage') },
  '/playground': { access: 'user', component: page(() => import('./playground/playground-page'), 'PlaygroundPage') },
  '/chat': { access: 'user', component: page(() => import('./chat/chat-page'), 'ChatPage') },
  '/chat/:id': { access: 'user', component: page(() => import('./chat/chat-page'), 'ChatPage') },
  '/chat2link': { access: 'user', component: page(() => import('./chat/chat2link-page'), 'Chat2LinkPage') },
  '/detail': { access: 'user', component: page(() => import('./dashboard/dashboard-page'), 'DashboardPage') },
  '/api-reference': { access: 'admin', component: page(() => import('./api-reference/api-reference-page'), 'ApiReferencePage') },
};
