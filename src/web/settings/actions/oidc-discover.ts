/**
 * The `oidc-discover` input action: fetches the OpenID Connect discovery document from the
 * well-known URL typed beside the button and fills the section's endpoint keys. A key takes
 * the document field of the same name, underscores ignored (`user_info_endpoint` ←
 * `userinfo_endpoint`), so the mapping lives in the schema's key names, not here.
 */
import type { FieldModel } from '../settings-model';

const squash = (name: string) => name.replace(/_/g, '').toLowerCase();

/** The last segment of an option key (`oidc.token_endpoint` → `token_endpoint`). */
function leaf(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}

/** Form values (by field name) for the keys the discovery document names. */
export function discoveredValues(doc: unknown, fields: FieldModel[]): Record<string, string> {
  if (!doc || typeof doc !== 'object') return {};
  const byName = new Map(Object.entries(doc as Record<string, unknown>).map(([k, v]) => [squash(k), v]));
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = byName.get(squash(leaf(field.key)));
    if (field.schema.type === 'string' && typeof value === 'string' && value) out[field.name] = value;
  }
  return out;
}

/** GET the discovery document; throws when the URL is not http(s) or the answer is not JSON. */
export async function fetchDiscovery(url: string, fetcher: typeof fetch = fetch): Promise<unknown> {
  if (!/^https?:\/\//.test(url.trim())) throw new Error('not an http(s) URL');
  const response = await fetcher(url.trim(), { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}
