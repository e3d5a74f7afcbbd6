/**
 * The wallet's rules (docs/wallet.md#amount-rules, docs/console.md#wallet-page): what an online top-up needs before
 * asking the server, and the form the payment provider receives. Pure, so each rule is
 * unit-tested.
 */

/** The reply of `/api/user/amount` and `/api/user/pay` (no `success` key, docs/wallet.md#online-top-up). */
export interface TopUpReply {
  message: 'success' | 'error' | string;
  data: unknown;
  url?: string;
}

export interface TopUpCheck {
  enabled: boolean;
  amount: number | null | undefined;
  min: number;
}

/** Why an online top-up cannot start: `disabled`, `belowMin`, or undefined when it can. */
export function topUpRefusal({ enabled, amount, min }: TopUpCheck): 'disabled' | 'belowMin' | undefined {
  if (!enabled) return 'disabled';
  if (amount === null || amount === undefined || !Number.isFinite(amount) || amount < Math.max(1, min)) return 'belowMin';
  return undefined;
}

/** The smallest amount the input offers: the public minimum, at least 1. */
export function minimumAmount(minTopUp: unknown): number {
  const n = Math.floor(Number(minTopUp));
  return Number.isFinite(n) && n > 1 ? n : 1;
}

/** The fields of a successful pay reply as name/value pairs to post; anything else gives none. */
export function payFormFields(reply: TopUpReply): [string, string][] {
  if (reply.message !== 'success' || !reply.url || !reply.data || typeof reply.data !== 'object') return [];
  return Object.entries(reply.data as Record<string, unknown>).map(([k, v]) => [k, String(v ?? '')]);
}

/** Posts the provider's form in this tab (the provider returns the user to the log page). */
export function submitPayForm(url: string, fields: [string, string][], doc: Document = document): void {
  const form = doc.createElement('form');
  form.method = 'POST';
  form.action = url;
  form.style.display = 'none';
  for (const [name, value] of fields) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  doc.body.appendChild(form);
  form.submit();
  form.remove();
}
