/**
 * The pipeline's three extension points, each one call per request, bound to the relay
 * guards and notifications (issue item 7): the model request rate limit before the request,
 * the sensitive-word check of the prompt, and the quota warning after the settlement was
 * committed (never awaited by the request).
 */
import type { AppContext } from '../../context';
import { admitModelRequest } from '../../services/relay-guards/model-rate-limit';
import { checkPromptSensitiveWords } from '../../services/relay-guards/sensitive-words';
import { warnIfQuotaLow } from '../../services/notifications/quota-warning';
import type { RelayMode } from '../providers/types';
import type { RelayLogger } from '../logger';

/** What the pipeline reports back to the limiter when the request is over. */
export interface RateLimitTicket {
  /** Final HTTP status of the reply: only statuses below 400 count as successes. */
  finish(status: number): void;
}

/** Model request rate limit (docs/relay.md#model-request-rate-limit): throws the 429; answers the ticket to finish. /v1/models is not limited. */
export async function checkModelRateLimit(ctx: AppContext, userId: number): Promise<RateLimitTicket> {
  const pass = await admitModelRequest(ctx, userId);
  return { finish: (status) => void pass.finish(status) };
}

/** Sensitive words in the prompt (docs/relay.md#sensitive-words): throws the reference's 400. */
export function checkSensitiveWords(ctx: AppContext, mode: RelayMode, body: Record<string, unknown>, log: RelayLogger): void {
  checkPromptSensitiveWords(ctx, mode, body, log);
}

export interface SettledRequest {
  userId: number;
  /** Quota charged for this request (committed). */
  charged: number;
  /** The user's balance right after the settlement's batch. */
  userQuotaAfter: number;
  /** The user's setting as cached by the relay (notify_type, quota_warning_threshold …). */
  userSetting: Record<string, unknown>;
}

/** After a request was billed: the quota warning (docs/notifications.md#quota-warnings). Fire and forget. */
export function afterSettlement(ctx: AppContext, settled: SettledRequest, log: RelayLogger): void {
  if (settled.charged <= 0) return;
  void warnIfQuotaLow(ctx, { userId: settled.userId, quotaBefore: settled.userQuotaAfter + settled.charged, charge: settled.charged, setting: settled.userSetting }, log);
}
