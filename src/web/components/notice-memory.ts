/**
 * "Close for today" for the site notice, remembered in this browser: the notice stays closed
 * for the rest of the local day, and comes back at once when the administrator changes it.
 */
import { readJson, STORAGE_KEYS, writeJson } from '../storage';

interface ClosedNotice {
  /** Local calendar day the notice was closed on (`YYYY-MM-DD`). */
  day: string;
  /** Fingerprint of the text that was closed, so a new text shows again the same day. */
  text: string;
}

export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** A short fingerprint of the notice text (FNV-1a); it only tells texts apart, it guards nothing. */
export function noticeFingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${text.length}:${hash.toString(16)}`;
}

export function shouldShowNotice(text: string, now: Date): boolean {
  if (!text.trim()) return false;
  const closed = readJson<ClosedNotice>(STORAGE_KEYS.noticeClosed);
  return !(closed && closed.day === localDay(now) && closed.text === noticeFingerprint(text));
}

export function closeNoticeForToday(text: string, now: Date): void {
  writeJson(STORAGE_KEYS.noticeClosed, { day: localDay(now), text: noticeFingerprint(text) } satisfies ClosedNotice);
}
