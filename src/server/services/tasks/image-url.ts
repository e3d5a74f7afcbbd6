/**
 * The address clients are given for a drawing task's image (docs/tasks.md#image-address): with
 * MjForwardUrlEnabled our own `/mj/image/<id>` on ServerAddress, which hides the upstream and
 * its account; else the upstream's URL as stored.
 */
import type { AppContext } from '../../context';

export function forwardedImageUrl(ctx: AppContext, row: { image_url: string | null; mj_id: string; status: string }): string {
  const stored = row.image_url ?? '';
  if (!stored || !row.mj_id || !ctx.options.bool('MjForwardUrlEnabled')) return stored;
  const base = ctx.options.get('ServerAddress').replace(/\/+$/, '');
  const url = `${base}/mj/image/${encodeURIComponent(row.mj_id)}`;
  // An image still being drawn changes: a new address per read keeps caches from holding it.
  return row.status === 'SUCCESS' ? url : `${url}?rand=${process.hrtime.bigint()}`;
}
