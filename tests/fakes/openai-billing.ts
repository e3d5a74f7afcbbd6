/**
 * OpenAI's legacy dashboard billing endpoints on the fake OpenAI upstream (installed by
 * `startFakeOpenAI`), which the channel balance refresh reads for OpenAI and Custom channels:
 * `GET /v1/dashboard/billing/subscription` (hard limit in USD, payment method) and
 * `GET /v1/dashboard/billing/usage?start_date&end_date` (usage in cents). Both want a
 * known Bearer key; `fake.billing` sets the numbers and records the last usage window asked.
 */
import type { FakeOpenAI } from './openai';

export interface FakeBilling {
  hardLimitUsd: number;
  hasPaymentMethod: boolean;
  /** Cents used in the asked window. */
  totalUsageCents: number;
  /** start_date / end_date of the last usage request. */
  lastWindow?: { start: string; end: string };
}

export const DEFAULT_BILLING: FakeBilling = { hardLimitUsd: 120, hasPaymentMethod: true, totalUsageCents: 2050 };

export function installBillingRoutes(fake: FakeOpenAI): void {
  fake.route(
    'GET',
    '/v1/dashboard/billing/subscription',
    (request) =>
      fake.checkAuth(request) ?? {
        body: {
          object: 'billing_subscription',
          has_payment_method: fake.billing.hasPaymentMethod,
          soft_limit_usd: fake.billing.hardLimitUsd / 2,
          hard_limit_usd: fake.billing.hardLimitUsd,
          system_hard_limit_usd: fake.billing.hardLimitUsd,
          access_until: 0,
        },
      },
  );
  fake.route('GET', '/v1/dashboard/billing/usage', (request) => {
    const denied = fake.checkAuth(request);
    if (denied) return denied;
    fake.billing.lastWindow = { start: request.query.get('start_date') ?? '', end: request.query.get('end_date') ?? '' };
    return { body: { object: 'list', total_usage: fake.billing.totalUsageCents } };
  });
}
