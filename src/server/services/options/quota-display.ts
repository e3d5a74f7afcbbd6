import type { AppContext } from '../../context';
import type { QuotaDisplay } from '../../../shared/quota';

/** How quota amounts read in logs and notifications, from the QuotaPerUnit and DisplayInCurrencyEnabled options. */
export function quotaDisplay(ctx: AppContext): QuotaDisplay {
  return { quotaPerUnit: ctx.options.number('QuotaPerUnit') || 500000, displayInCurrency: ctx.options.bool('DisplayInCurrencyEnabled') };
}
