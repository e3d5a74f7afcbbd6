/**
 * Pixel size of an inline image, read from its header bytes (PNG, GIF, WebP, JPEG), for the
 * prompt-token estimate of images. Never fetches anything: remote images have no size here.
 */

export interface ImageSize {
  width: number;
  height: number;
}

/** Enough base64 for every header but a JPEG with a large EXIF block before its frame header. */
const HEADER_BASE64_CHARS = 64 * 1024;

function png(b: Buffer): ImageSize | undefined {
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47) return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gif(b: Buffer): ImageSize | undefined {
  if (b.length < 10 || b.toString('ascii', 0, 3) !== 'GIF') return undefined;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function webp(b: Buffer): ImageSize | undefined {
  if (b.length < 30 || b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WEBP') return undefined;
  const chunk = b.toString('ascii', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** Walks JPEG segments to the first start-of-frame marker (SOF0-SOF15 except DHT/JPG/DAC). */
function jpeg(b: Buffer): ImageSize | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 < b.length) {
    if (b[offset] !== 0xff) return undefined;
    const marker = b[offset + 1];
    const length = b.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: b.readUInt16BE(offset + 7), height: b.readUInt16BE(offset + 5) };
    }
    offset += 2 + length;
  }
  return undefined;
}

function sizeOf(bytes: Buffer): ImageSize | undefined {
  return png(bytes) ?? gif(bytes) ?? webp(bytes) ?? jpeg(bytes);
}

/** Size of a base64 image; undefined when the format is unknown or the data is damaged. */
export function imageSizeFromBase64(data: string): ImageSize | undefined {
  const head = sizeOf(Buffer.from(data.slice(0, HEADER_BASE64_CHARS), 'base64'));
  if (head || data.length <= HEADER_BASE64_CHARS) return head;
  return sizeOf(Buffer.from(data, 'base64'));
}
