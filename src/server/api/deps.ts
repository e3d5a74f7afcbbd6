/** What each /api route module receives. */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Guards } from '../auth/guards';
import type { AppContext } from '../context';

export interface RouteDeps {
  ctx: AppContext;
  guards: Guards;
  /** The shared critical limit of login, register, reset, verification and OAuth routes. */
  critical: onRequestAsyncHookHandler;
}
