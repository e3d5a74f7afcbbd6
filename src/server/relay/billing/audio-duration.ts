/**
 * Seconds of an uploaded audio file, for speech-to-text billing (1 minute = 1000 prompt
 * tokens, docs/relay.md#token-counting). WAV is read from its header, MP3 from its first frame's
 * bit rate; anything else is estimated at 128 kbit/s. The upstream's own `duration` (verbose
 * answers) wins when it reports one.
 */

const MP3_BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
const MP3_BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0];
const DEFAULT_BITS_PER_SECOND = 128_000;

function wavSeconds(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 44 || ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE') return undefined;
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = ascii(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ') byteRate = view.getUint32(at + 16, true);
    if (id === 'data' && byteRate > 0) return Math.min(size, bytes.length - at - 8) / byteRate;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

function mp3Seconds(bytes: Uint8Array): number | undefined {
  let start = 0;
  // Skip an ID3v2 tag.
  if (bytes.length > 10 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    start = 10 + ((bytes[6]! & 0x7f) << 21) + ((bytes[7]! & 0x7f) << 14) + ((bytes[8]! & 0x7f) << 7) + (bytes[9]! & 0x7f);
  }
  for (let i = start; i + 4 < Math.min(bytes.length, start + 64 * 1024); i++) {
    if (bytes[i] !== 0xff || (bytes[i + 1]! & 0xe0) !== 0xe0) continue;
    const version = (bytes[i + 1]! >> 3) & 0x03;
    const layer = (bytes[i + 1]! >> 1) & 0x03;
    if (layer !== 1) continue;
    const index = bytes[i + 2]! >> 4;
    const kbps = (version === 3 ? MP3_BITRATES_V1_L3 : MP3_BITRATES_V2_L3)[index] ?? 0;
    if (kbps > 0) return ((bytes.length - i) * 8) / (kbps * 1000);
  }
  return undefined;
}

export function audioSeconds(bytes: Uint8Array): number {
  return wavSeconds(bytes) ?? mp3Seconds(bytes) ?? (bytes.length * 8) / DEFAULT_BITS_PER_SECOND;
}

/** Prompt tokens of an audio length: ⌈seconds⌉ / 60 × 1000, rounded. */
export function audioPromptTokens(seconds: number): number {
  return Math.round((Math.ceil(seconds) / 60) * 1000);
}
