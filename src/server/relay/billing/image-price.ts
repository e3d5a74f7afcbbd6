/**
 * Image generation price (docs/billing.md#images): ModelPrice per image
 * (else 0.0025 × model ratio) × size factor × quality factor × n, charged as
 * round(price × QuotaPerUnit × group ratio) — the computed price, also without a fixed price.
 */
import type { PriceInfo } from './price';

const SIZE_FACTOR: Record<string, number> = {
  '256x256': 0.4,
  '512x512': 0.45,
  '1024x1024': 1,
  '1024x1792': 2,
  '1792x1024': 2,
};

export interface ImageRequest {
  model: string;
  size: string;
  quality: string;
  n: number;
}

export function imageRequestOf(model: string, body: Record<string, unknown>): ImageRequest {
  return {
    model,
    size: typeof body.size === 'string' && body.size ? body.size : '1024x1024',
    quality: typeof body.quality === 'string' && body.quality ? body.quality : 'standard',
    n: typeof body.n === 'number' && body.n > 0 ? Math.trunc(body.n) : 1,
  };
}

/** USD for the whole request before the group ratio. */
export function imagePriceUsd(image: ImageRequest, price: PriceInfo): number {
  const perImage = price.usePrice ? price.modelPrice : 0.0025 * price.modelRatio;
  const size = SIZE_FACTOR[image.size] ?? 1;
  let quality = 1;
  if (image.model === 'dall-e-3' && image.quality === 'hd') quality = image.size === '1024x1024' ? 2 : 1.5;
  return perImage * size * quality * image.n;
}

export function imageQuota(image: ImageRequest, price: PriceInfo): number {
  return Math.round(imagePriceUsd(image, price) * price.quotaPerUnit * price.groupRatio);
}

/** The log content for images (docs/billing.md#images). */
export function imageLogExtra(image: ImageRequest): string {
  return `大小 ${image.size}, 品质 ${image.quality === 'hd' ? 'hd' : 'standard'}`;
}
